package io.ankusa.queue.migration;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.store.WriteBatch;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class KeyOrderedBatchTest {

    private static final String[] FAMILIES = {"index", "counters", "default", "tenants"};

    @Test
    void aBatchComesOutInFamilyKeyOrderAndAppliesToTheSameStateAsTheBatchAsBuilt() {
        for (long seed = 1; seed <= 20; seed++) {
            SplittableRandom random = new SplittableRandom(seed);
            WriteBatch batch = new WriteBatch();
            int ops = 1 + random.nextInt(3_000);
            for (int i = 0; i < ops; i++) {
                String family = FAMILIES[random.nextInt(FAMILIES.length)];
                // Short keys from a small space: many share their first five bytes, some repeat.
                byte[] key = new byte[1 + random.nextInt(8)];
                for (int b = 0; b < key.length; b++) {
                    key[b] = (byte) (b < 5 ? random.nextInt(3) * 0x7F : random.nextInt(256));
                }
                switch (random.nextInt(4)) {
                    case 0 -> batch.delete(family, key);
                    case 1 -> batch.merge(family, key, random.nextInt(100) - 50);
                    default -> batch.put(family, key, new byte[] {(byte) i, (byte) (i >> 8)});
                }
            }
            WriteBatch sorted = KeyOrderedBatch.of(batch);

            assertThat(sorted.size()).isEqualTo(batch.size());
            List<WriteBatch.Op> out = sorted.ops();
            for (int i = 1; i < out.size(); i++) {
                WriteBatch.Op a = out.get(i - 1);
                WriteBatch.Op b = out.get(i);
                int order = a.family().equals(b.family()) ? Arrays.compareUnsigned(key(a), key(b))
                        : a.family().compareTo(b.family());
                assertThat(order).as("seed %d, ops %d and %d", seed, i - 1, i).isLessThanOrEqualTo(0);
            }
            assertThat(apply(sorted)).as("seed %d", seed).isEqualTo(apply(batch));
        }
    }

    @Test
    void opsOnTheSameKeyKeepTheirOrder() {
        byte[] key = {'D', 0, 0, 0, 1, 9};
        WriteBatch batch = new WriteBatch().put("index", key, new byte[] {1}).put("index", new byte[] {'A', 5}, new byte[0])
                .delete("index", key).put("index", key, new byte[] {2}).delete("index", new byte[] {'A', 5});
        WriteBatch sorted = KeyOrderedBatch.of(batch);

        assertThat(sorted.ops()).extracting(KeyOrderedBatchTest::describe).containsExactly(
                "put index 4105 ", "delete index 4105", "put index 440000000109 01", "delete index 440000000109",
                "put index 440000000109 02");
    }

    @Test
    void aBatchWithARangeDeleteIsLeftAsItIs() {
        WriteBatch batch = new WriteBatch().put("index", new byte[] {'D', 2}, new byte[0])
                .deleteRange("index", new byte[] {'d'}, new byte[] {'e'}).put("index", new byte[] {'A', 1}, new byte[0]);

        assertThat(KeyOrderedBatch.of(batch)).isSameAs(batch);
    }

    private static byte[] key(WriteBatch.Op op) {
        if (op instanceof WriteBatch.Put put) {
            return put.key();
        } else if (op instanceof WriteBatch.Delete delete) {
            return delete.key();
        }
        return ((WriteBatch.Merge) op).key();
    }

    private static String describe(WriteBatch.Op op) {
        HexFormat hex = HexFormat.of();
        if (op instanceof WriteBatch.Put put) {
            return "put " + put.family() + " " + hex.formatHex(put.key()) + " " + hex.formatHex(put.value());
        }
        return (op instanceof WriteBatch.Delete ? "delete " : "merge ") + op.family() + " " + hex.formatHex(key(op));
    }

    /** What the batch leaves, applied op by op in order: family and hex key to value or counter. */
    private static Map<String, String> apply(WriteBatch batch) {
        Map<String, String> state = new TreeMap<>();
        HexFormat hex = HexFormat.of();
        for (WriteBatch.Op op : batch.ops()) {
            String at = op.family() + "/" + hex.formatHex(key(op));
            if (op instanceof WriteBatch.Put put) {
                state.put(at, "v" + hex.formatHex(put.value()));
            } else if (op instanceof WriteBatch.Delete) {
                state.remove(at);
            } else if (op instanceof WriteBatch.Merge merge) {
                String before = state.getOrDefault(at, "c0");
                long sum = (before.startsWith("c") ? Long.parseLong(before.substring(1)) : 0) + merge.delta();
                state.put(at, "c" + sum);
            }
        }
        return state;
    }
}

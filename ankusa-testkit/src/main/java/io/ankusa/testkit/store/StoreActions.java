package io.ankusa.testkit.store;

import io.ankusa.store.Bytes;
import io.ankusa.store.Direction;
import io.ankusa.store.Durability;
import io.ankusa.store.KeyRange;
import io.ankusa.store.StoreError;
import io.ankusa.store.WriteBatch;
import io.ankusa.testkit.property.Action;
import io.ankusa.testkit.property.ActionSequenceCheck;
import java.util.ArrayList;
import java.util.List;
import java.util.random.RandomGenerator;
import java.util.stream.Collectors;

/**
 * The actions of the model-based store property. Keys come from {@link ModelledStore#ALPHABET}
 * so that writes collide and ranges hit; half of the keys an op names are "the k-th key present
 * in the family", resolved when the action runs, so deletes and range ends often hit stored keys.
 * Every action is drawn up front from the seed and labelled, so a shrunk failure reads as a script.
 */
final class StoreActions {

    static final String PLAIN = StoreConformanceSuite.PLAIN;
    static final String OTHER = StoreConformanceSuite.OTHER;
    static final String COUNTS = StoreConformanceSuite.COUNTS;

    private StoreActions() {
    }

    /** Adds every action, with its weight, to {@code check}. */
    static ActionSequenceCheck<ModelledStore> addTo(ActionSequenceCheck<ModelledStore> check) {
        return check
                .action(5, r -> commit(List.of(put(r)), r))
                .action(2, r -> commit(List.of(delete(r)), r))
                .action(2, r -> commit(List.of(deleteRange(r)), r))
                .action(4, r -> commit(List.of(merge(r)), r))
                .action(3, r -> {
                    List<OpTemplate> ops = new ArrayList<>();
                    int count = 2 + r.nextInt(7);
                    for (int i = 0; i < count; i++) {
                        ops.add(validOp(r));
                    }
                    return commit(ops, r);
                })
                .action(1, StoreActions::refusedBatch)
                .action(1, r -> Action.of("close and reopen", ModelledStore::reopen))
                .action(1,
                        r -> Action.of("checkpoint and compare the copy", ModelledStore::assertCheckpointMatchesModel))
                .action(2, r -> {
                    String family = anyFamily(r);
                    KeyRange range = range(r);
                    Direction direction = r.nextBoolean() ? Direction.FORWARD : Direction.REVERSE;
                    return Action.of("scan " + family + " " + range + " " + direction,
                            s -> s.assertScanMatches(family, range, direction));
                });
    }

    /** One op of a batch, its keys resolved against the current state when the action runs. */
    private interface OpTemplate {
        void addTo(WriteBatch batch, ModelledStore state);

        String describe();
    }

    /** A fixed key, or the k-th key present in the family at apply time (the fixed one if none). */
    private record KeyPick(byte[] fixed, int present) {
        byte[] resolve(ModelledStore state, String family) {
            return present < 0 ? fixed : state.presentKeyOr(family, present, fixed);
        }

        @Override
        public String toString() {
            return present < 0 ? Bytes.hex(fixed) : "present#" + present + "|" + Bytes.hex(fixed);
        }
    }

    private static Action<ModelledStore> commit(List<OpTemplate> ops, RandomGenerator r) {
        Durability durability = r.nextBoolean() ? Durability.SYNC : Durability.ASYNC;
        return Action.of("commit " + durability + " " + describe(ops),
                s -> s.commit(build(ops, s), durability));
    }

    /** Valid ops followed by one the store must refuse: nothing of the batch may land. */
    private static Action<ModelledStore> refusedBatch(RandomGenerator r) {
        List<OpTemplate> ops = new ArrayList<>();
        int valid = 1 + r.nextInt(4);
        for (int i = 0; i < valid; i++) {
            ops.add(validOp(r));
        }
        byte[] key = key(r);
        byte[] value = value(r);
        long delta = delta(r);
        String plain = plainFamily(r);
        StoreError reason;
        switch (r.nextInt(3)) {
            case 0 -> {
                ops.add(template("put " + COUNTS + " " + Bytes.hex(key), (b, s) -> b.put(COUNTS, key, value)));
                reason = StoreError.INVALID_ARGUMENT;
            }
            case 1 -> {
                ops.add(template("merge " + plain + " " + Bytes.hex(key), (b, s) -> b.merge(plain, key, delta)));
                reason = StoreError.INVALID_ARGUMENT;
            }
            default -> {
                ops.add(template("put undeclared " + Bytes.hex(key), (b, s) -> b.put("undeclared", key, value)));
                reason = StoreError.UNKNOWN_FAMILY;
            }
        }
        if (r.nextBoolean()) {
            ops.add(validOp(r));
        }
        Durability durability = r.nextBoolean() ? Durability.SYNC : Durability.ASYNC;
        return Action.of("refused " + durability + " " + describe(ops) + " (" + reason + ")",
                s -> s.commitRefused(build(ops, s), durability, reason));
    }

    private static OpTemplate validOp(RandomGenerator r) {
        return switch (r.nextInt(10)) {
            case 0, 1, 2, 3 -> put(r);
            case 4, 5 -> delete(r);
            case 6 -> deleteRange(r);
            default -> merge(r);
        };
    }

    private static OpTemplate put(RandomGenerator r) {
        String family = plainFamily(r);
        KeyPick key = pick(r);
        byte[] value = value(r);
        return template("put " + family + " " + key + "=" + Bytes.hex(value),
                (b, s) -> b.put(family, key.resolve(s, family), value));
    }

    private static OpTemplate delete(RandomGenerator r) {
        String family = anyFamily(r);
        KeyPick key = pick(r);
        return template("delete " + family + " " + key, (b, s) -> b.delete(family, key.resolve(s, family)));
    }

    private static OpTemplate merge(RandomGenerator r) {
        KeyPick key = pick(r);
        long delta = delta(r);
        return template("merge " + COUNTS + " " + key + " " + delta,
                (b, s) -> b.merge(COUNTS, key.resolve(s, COUNTS), delta));
    }

    /** A range delete; an empty range ({@code from == to}) now and then. */
    private static OpTemplate deleteRange(RandomGenerator r) {
        String family = anyFamily(r);
        KeyPick first = pick(r);
        KeyPick second = r.nextInt(8) == 0 ? first : pick(r);
        return template("deleteRange " + family + " " + first + ".." + second, (b, s) -> {
            byte[] x = first.resolve(s, family);
            byte[] y = second.resolve(s, family);
            if (Bytes.compare(x, y) <= 0) {
                b.deleteRange(family, x, y);
            } else {
                b.deleteRange(family, y, x);
            }
        });
    }

    private static OpTemplate template(String label, java.util.function.BiConsumer<WriteBatch, ModelledStore> body) {
        return new OpTemplate() {
            @Override
            public void addTo(WriteBatch batch, ModelledStore state) {
                body.accept(batch, state);
            }

            @Override
            public String describe() {
                return label;
            }
        };
    }

    private static WriteBatch build(List<OpTemplate> ops, ModelledStore state) {
        WriteBatch batch = new WriteBatch();
        for (OpTemplate op : ops) {
            op.addTo(batch, state);
        }
        return batch;
    }

    private static KeyPick pick(RandomGenerator r) {
        return new KeyPick(key(r), r.nextBoolean() ? r.nextInt(1_000) : -1);
    }

    static byte[] key(RandomGenerator r) {
        byte[] key = new byte[1 + r.nextInt(3)];
        for (int i = 0; i < key.length; i++) {
            key[i] = ModelledStore.ALPHABET[r.nextInt(ModelledStore.ALPHABET.length)];
        }
        return key;
    }

    private static byte[] value(RandomGenerator r) {
        byte[] value = new byte[r.nextInt(7)];
        r.nextBytes(value);
        return value;
    }

    /** Mostly small deltas of both signs, sometimes past 2^31 either way. */
    private static long delta(RandomGenerator r) {
        return r.nextInt(4) == 0 ? r.nextLong(-(1L << 40), 1L << 40) : r.nextLong(-5, 6);
    }

    private static KeyRange range(RandomGenerator r) {
        return switch (r.nextInt(4)) {
            case 0 -> {
                byte[] a = key(r);
                byte[] b = r.nextInt(8) == 0 ? a.clone() : key(r);
                yield Bytes.compare(a, b) <= 0 ? KeyRange.of(a, b) : KeyRange.of(b, a);
            }
            case 1 -> KeyRange.prefix(r.nextInt(4) == 0 ? new byte[] {(byte) 0xFF, (byte) 0xFF} : key(r));
            case 2 -> KeyRange.atLeast(key(r));
            default -> KeyRange.all();
        };
    }

    private static String plainFamily(RandomGenerator r) {
        return r.nextBoolean() ? PLAIN : OTHER;
    }

    private static String anyFamily(RandomGenerator r) {
        return switch (r.nextInt(3)) {
            case 0 -> PLAIN;
            case 1 -> OTHER;
            default -> COUNTS;
        };
    }

    private static String describe(List<OpTemplate> ops) {
        return ops.stream().map(OpTemplate::describe).collect(Collectors.joining(", ", "[", "]"));
    }
}

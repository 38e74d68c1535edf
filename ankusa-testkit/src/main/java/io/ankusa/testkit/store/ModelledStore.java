package io.ankusa.testkit.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ankusa.store.Bytes;
import io.ankusa.store.Direction;
import io.ankusa.store.Durability;
import io.ankusa.store.FamilyKind;
import io.ankusa.store.FamilySpec;
import io.ankusa.store.KeyRange;
import io.ankusa.store.KeyValue;
import io.ankusa.store.Scan;
import io.ankusa.store.Store;
import io.ankusa.store.StoreError;
import io.ankusa.store.StoreException;
import io.ankusa.store.StoreOptions;
import io.ankusa.store.WriteBatch;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * The subject of the model-based property: a store under test and its {@link StoreModel}, changed
 * together and compared after every step. Every read helper states its expectation as a list of
 * hex strings so a mismatch prints readably.
 */
final class ModelledStore implements AutoCloseable {

    /** Every key the property can produce: 1 to 3 bytes from this alphabet (258 keys). */
    static final byte[] ALPHABET = {0x00, 0x01, 0x7F, (byte) 0x80, (byte) 0xFE, (byte) 0xFF};
    static final List<byte[]> ALL_KEYS = allKeys();

    private final Path directory;
    private final List<FamilySpec> families;
    private final Function<StoreOptions, Store> opener;
    private final StoreModel model;
    private Store store;
    private int checkpoints;

    ModelledStore(Path directory, List<FamilySpec> families, Function<StoreOptions, Store> opener) {
        this.directory = directory;
        this.families = families;
        this.opener = opener;
        this.model = new StoreModel(families);
        this.store = opener.apply(StoreOptions.create(directory, families));
    }

    /** Commits to the store, then to the model. */
    void commit(WriteBatch batch, Durability durability) {
        store.commit(batch, durability);
        model.apply(batch);
    }

    /** Commits a batch the store must refuse with {@code reason}; the model stays as it is. */
    void commitRefused(WriteBatch batch, Durability durability, StoreError reason) {
        assertThatThrownBy(() -> store.commit(batch, durability))
                .isInstanceOf(StoreException.class)
                .extracting(e -> ((StoreException) e).reason()).isEqualTo(reason);
    }

    /** The {@code pick}-th key present in {@code family} now, or {@code otherwise} when it is empty. */
    byte[] presentKeyOr(String family, int pick, byte[] otherwise) {
        return model.presentKey(family, pick).orElse(otherwise);
    }

    /** Closes the store and opens it again as an existing store. */
    void reopen() {
        store.close();
        store = opener.apply(StoreOptions.existing(directory, families));
    }

    /** Checkpoints the store, opens the copy and compares every family of it with the model. */
    void assertCheckpointMatchesModel() {
        Path target = directory.resolveSibling(directory.getFileName() + "-checkpoint-" + checkpoints++);
        store.checkpoint(target);
        try (Store copy = opener.apply(StoreOptions.existing(target, families))) {
            for (FamilySpec spec : families) {
                List<KeyValue> actual = scan(copy, spec.name(), KeyRange.all(), Direction.FORWARD);
                List<KeyValue> expected = model.scan(spec.name(), KeyRange.all(), Direction.FORWARD);
                if (!actual.equals(expected)) {
                    assertThat(hex(actual)).as("checkpoint of %s", spec.name()).isEqualTo(hex(expected));
                }
            }
        }
    }

    /** Point reads of every key, full scans both ways, and one prefix scan per alphabet byte. */
    void assertMatchesModel() {
        for (FamilySpec spec : families) {
            String family = spec.name();
            if (spec.kind() == FamilyKind.COUNTER) {
                long[] actual = store.counters(family, ALL_KEYS);
                long[] expected = new long[ALL_KEYS.size()];
                for (int i = 0; i < expected.length; i++) {
                    expected[i] = model.counter(family, ALL_KEYS.get(i));
                }
                if (!Arrays.equals(actual, expected)) {
                    assertThat(labelled(Arrays.stream(actual).mapToObj(Long::toString).toList()))
                            .as("counters of %s", family)
                            .isEqualTo(labelled(Arrays.stream(expected).mapToObj(Long::toString).toList()));
                }
            } else {
                List<Optional<byte[]>> actual = store.multiGet(family, ALL_KEYS);
                List<Optional<byte[]>> expected = ALL_KEYS.stream().map(k -> model.get(family, k)).toList();
                boolean same = actual.size() == expected.size();
                for (int i = 0; same && i < expected.size(); i++) {
                    same = actual.get(i).isPresent() == expected.get(i).isPresent()
                            && (actual.get(i).isEmpty() || Arrays.equals(actual.get(i).get(), expected.get(i).get()));
                }
                if (!same) {
                    assertThat(labelled(actual.stream().map(ModelledStore::show).toList()))
                            .as("multiGet of %s", family)
                            .isEqualTo(labelled(expected.stream().map(ModelledStore::show).toList()));
                }
            }
            assertScanMatches(family, KeyRange.all(), Direction.FORWARD);
            assertScanMatches(family, KeyRange.all(), Direction.REVERSE);
            for (byte first : ALPHABET) {
                assertScanMatches(family, KeyRange.prefix(new byte[] {first}), Direction.FORWARD);
                assertScanMatches(family, KeyRange.prefix(new byte[] {first}), Direction.REVERSE);
            }
        }
    }

    /** One scan compared with the model. */
    void assertScanMatches(String family, KeyRange range, Direction direction) {
        List<KeyValue> actual = scan(store, family, range, direction);
        List<KeyValue> expected = model.scan(family, range, direction);
        if (!actual.equals(expected)) {
            assertThat(hex(actual)).as("%s scan of %s %s", direction, family, range).isEqualTo(hex(expected));
        }
    }

    @Override
    public void close() {
        store.close();
    }

    static List<KeyValue> scan(Store store, String family, KeyRange range, Direction direction) {
        List<KeyValue> out = new ArrayList<>();
        try (Scan scan = store.scan(family, range, direction)) {
            scan.forEachRemaining(out::add);
        }
        return out;
    }

    private static List<String> hex(List<KeyValue> rows) {
        return rows.stream().map(kv -> Bytes.hex(kv.key()) + "=" + Bytes.hex(kv.value())).toList();
    }

    private static List<String> labelled(List<String> values) {
        List<String> out = new ArrayList<>(values.size());
        for (int i = 0; i < values.size(); i++) {
            out.add(Bytes.hex(ALL_KEYS.get(i)) + "=" + values.get(i));
        }
        return out;
    }

    private static String show(Optional<byte[]> value) {
        return value.map(v -> "[" + Bytes.hex(v) + "]").orElse("absent");
    }

    private static List<byte[]> allKeys() {
        List<byte[]> keys = new ArrayList<>();
        for (byte a : ALPHABET) {
            keys.add(new byte[] {a});
            for (byte b : ALPHABET) {
                keys.add(new byte[] {a, b});
                for (byte c : ALPHABET) {
                    keys.add(new byte[] {a, b, c});
                }
            }
        }
        return List.copyOf(keys);
    }
}

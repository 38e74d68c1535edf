package io.ankusa.store.rocksdb;

import io.ankusa.store.FamilySpec;
import io.ankusa.store.KeyValue;
import io.ankusa.store.Scan;
import io.ankusa.store.StoreOptions;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Families, keys and openers shared by this module's tests. */
final class TestStores {

    static final String ITEMS = "items";
    static final String COUNTS = "counts";
    static final FamilySpec ITEMS_PLAIN = FamilySpec.plain(ITEMS);
    static final FamilySpec COUNTS_COUNTER = FamilySpec.counter(COUNTS);
    static final List<FamilySpec> FAMILIES = List.of(ITEMS_PLAIN, COUNTS_COUNTER);

    private static final RocksStoreProvider PROVIDER = new RocksStoreProvider();

    private TestStores() {
    }

    /** Opens (creating) a store with {@link #FAMILIES}. */
    static RocksStore create(Path directory) {
        return open(StoreOptions.create(directory, FAMILIES));
    }

    /** Opens a store through the provider, as a user would. */
    static RocksStore open(StoreOptions options) {
        return (RocksStore) PROVIDER.open(options);
    }

    static byte[] key(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    static byte[] bytes(int... values) {
        byte[] out = new byte[values.length];
        for (int i = 0; i < values.length; i++) {
            out[i] = (byte) values[i];
        }
        return out;
    }

    /** Reads a scan to its end and closes it. */
    static List<KeyValue> drain(Scan scan) {
        try (scan) {
            List<KeyValue> out = new ArrayList<>();
            while (scan.hasNext()) {
                out.add(scan.next());
            }
            return out;
        }
    }
}

package io.ankusa.store.lmdb;

import io.ankusa.store.FamilySpec;
import io.ankusa.store.KeyValue;
import io.ankusa.store.Scan;
import io.ankusa.store.Store;
import io.ankusa.store.StoreOptions;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** A store with one plain and one counter family, and small byte helpers. */
final class TestStores {

    static final String PLAIN = "plain";
    static final String COUNTS = "counts";
    static final List<FamilySpec> FAMILIES = List.of(FamilySpec.plain(PLAIN), FamilySpec.counter(COUNTS));

    private TestStores() {
    }

    static StoreOptions options(Path directory) {
        return StoreOptions.create(directory, FAMILIES);
    }

    static Store open(Path directory) {
        return open(options(directory));
    }

    static Store open(StoreOptions options) {
        return new LmdbStoreProvider().open(options);
    }

    static byte[] bytes(int... values) {
        byte[] out = new byte[values.length];
        for (int i = 0; i < values.length; i++) {
            out[i] = (byte) values[i];
        }
        return out;
    }

    static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    static String text(byte[] bytes) {
        return new String(bytes, StandardCharsets.UTF_8);
    }

    /** Drains and closes {@code scan}. */
    static List<KeyValue> drain(Scan scan) {
        try (scan) {
            List<KeyValue> out = new ArrayList<>();
            scan.forEachRemaining(out::add);
            return out;
        }
    }

    static List<String> keys(Scan scan) {
        return drain(scan).stream().map(kv -> text(kv.key())).toList();
    }
}

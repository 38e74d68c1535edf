package io.ankusa.tests.queue;

import io.ankusa.store.Bytes;
import io.ankusa.store.FamilySpec;
import io.ankusa.store.KeyRange;
import io.ankusa.store.KeyValue;
import io.ankusa.store.Scan;
import io.ankusa.store.Store;
import java.util.ArrayList;
import java.util.List;

/** Every key and value of every column family, for "nothing was written" assertions. */
public final class StoreSnapshot {

    private StoreSnapshot() {
    }

    /** Every entry of every family the store was opened with, as {@code family key = value} in hex, family by family in key order. */
    public static List<String> of(Store store) {
        List<String> out = new ArrayList<>();
        for (String family : store.families().stream().map(FamilySpec::name).toList()) {
            try (Scan scan = store.scan(family, KeyRange.all())) {
                while (scan.hasNext()) {
                    KeyValue kv = scan.next();
                    out.add(family + " " + Bytes.hex(kv.key()) + " = " + Bytes.hex(kv.value()));
                }
            }
        }
        return out;
    }
}

package io.ankusa.queue.migration;

import io.ankusa.keys.ColumnFamilies;
import io.ankusa.store.FamilySpec;
import java.util.List;

/**
 * The column families of store format 3 as the store declares them: every family plain with a
 * 16 MiB write buffer, except {@code counters}: a counter family (merge operands) with a 1 MiB
 * write buffer and no compression, so flushes soon collapse its operands.
 */
public final class StoreLayout {

    private StoreLayout() {
    }

    /** The families to open a format-3 store with. */
    public static List<FamilySpec> families() {
        return ColumnFamilies.ALL.stream()
                .map(name -> name.equals(ColumnFamilies.COUNTERS) ? FamilySpec.counter(name) : FamilySpec.plain(name))
                .toList();
    }
}

package io.ankusa.keys.v2;

import io.ankusa.keys.ArchiveKey;
import io.ankusa.keys.ClearedKey;
import io.ankusa.keys.ColumnFamilies;
import io.ankusa.keys.DeadKey;
import io.ankusa.keys.DeliveryKey;
import io.ankusa.keys.HookKey;
import io.ankusa.keys.KeyFamilies;
import io.ankusa.keys.KeyFamily;
import io.ankusa.keys.MetaKeys;
import java.util.List;

/**
 * The family table of store format 2, for writing a format-2 fixture and for the migration:
 * format 2 has no {@code tenants} or {@code counters} column family, keeps due and inflight rows
 * under {@code ?d} ({@link DueKeyV2}) and {@code ?f} ({@link InflightKeyV2}), and shares the unchanged families (hooks,
 * deliveries, dead keys, archive keys, cleared markers, audit, meta) with format 3.
 */
public final class LayoutV2 {

    /** The column families of a format-2 store. */
    public static final List<String> COLUMN_FAMILIES = List.of(ColumnFamilies.DEFAULT, ColumnFamilies.HOOKS,
            ColumnFamilies.DELIVERIES, ColumnFamilies.INDEX, ColumnFamilies.AUDIT);

    /** Every format-2 key family with its sentinels. */
    public static final List<KeyFamily> KEY_FAMILIES = List.of(
            MetaKeys.FAMILY,
            HookKey.FAMILY,
            DeliveryKey.FAMILY,
            DueKeyV2.FAMILY,
            InflightKeyV2.FAMILY,
            DeadKey.FAMILY,
            ArchiveKey.FAMILY,
            ClearedKey.FAMILY,
            KeyFamilies.AUDIT);

    private LayoutV2() {
    }
}

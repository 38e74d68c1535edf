package io.ankusa.keys;

import java.util.List;

/**
 * The family table of store format 3: every key family with its column family and sentinels.
 * Opening or upgrading a store writes all their sentinels; a whole-family fold checks them.
 */
public final class KeyFamilies {

    /** Audit entries {@code <<'a', seq::64, at::64>>} in the audit column family; untouched by format 3. */
    public static final KeyFamily AUDIT = AuditKey.FAMILY;

    /** Every format-3 key family. */
    public static final List<KeyFamily> ALL = List.of(
            MetaKeys.FAMILY,
            HookKey.FAMILY,
            DeliveryKey.FAMILY,
            DueKey.FAMILY,
            InflightKey.FAMILY,
            DeadKey.FAMILY,
            DeadByTenantKey.FAMILY,
            ActiveKey.FAMILY,
            ArchiveKey.FAMILY,
            QuarantineKey.FAMILY,
            AttemptKey.FAMILY,
            EndpointKey.FAMILY,
            RegistryKey.FAMILY,
            ClearedKey.FAMILY,
            DedupeKey.FAMILY,
            DedupeExpiryKey.FAMILY,
            TenantByOrdKey.FAMILY,
            OrdByTenantKey.FAMILY,
            CounterKey.FAMILY,
            AUDIT,
            OrderKey.FAMILY);

    private KeyFamilies() {
    }
}

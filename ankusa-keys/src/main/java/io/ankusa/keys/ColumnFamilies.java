package io.ankusa.keys;

import java.util.List;

/**
 * The column families of store format 3, by name. Key families (due, inflight, dead, …) are
 * prefixes inside these; see {@link KeyFamilies}.
 */
public final class ColumnFamilies {

    /** Meta keys ({@code m:…}): format stamp, next ordinal, last seq, migration cursors. */
    public static final String DEFAULT = "default";
    /** Hook envelopes by seq. */
    public static final String HOOKS = "hooks";
    /** Delivery rows by (seq, sink). */
    public static final String DELIVERIES = "deliveries";
    /**
     * Index keys: due, inflight, dead, dead by tenant, active markers, archive obligations, cleared markers, dedupe.
     */
    public static final String INDEX = "index";
    /** Tenant ordinals both ways ({@code ?t}, {@code ?n}). */
    public static final String TENANTS = "tenants";
    /** Per-tenant counters; merge operands only. */
    public static final String COUNTERS = "counters";
    /** The audit trail (untouched by format 3). */
    public static final String AUDIT = "audit";

    /**
     * Ordered deliveries ({@code ?O}): per tenant, sink and ordering group, in ingest order. A family
     * of its own so that a release without ordering refuses a store that has it.
     */
    public static final String ORDERING = "ordering";

    /** Every column family, in declaration order. */
    public static final List<String> ALL =
            List.of(DEFAULT, HOOKS, DELIVERIES, INDEX, TENANTS, COUNTERS, AUDIT, ORDERING);

    private ColumnFamilies() {
    }
}

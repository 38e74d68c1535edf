package io.ankusa.keys;

/**
 * The one-byte prefixes of the key families in the {@code index} and {@code tenants} column families (ASCII letters).
 */
public final class Prefixes {

    /** Due rows by tenant: {@code ?D}. */
    public static final byte DUE = 'D';
    /** Inflight rows by tenant: {@code ?F}. */
    public static final byte INFLIGHT = 'F';
    /** Dead rows, global time order: {@code ?x}. */
    public static final byte DEAD = 'x';
    /** Dead rows by tenant: {@code ?X}. */
    public static final byte DEAD_BY_TENANT = 'X';
    /** Active-tenant markers: {@code ?A}. */
    public static final byte ACTIVE = 'A';
    /** Quarantined deliveries by tenant: {@code ?Q}. */
    public static final byte QUARANTINE = 'Q';
    /** The attempt history by tenant, by hook and per-delivery slots: {@code ?H}. */
    public static final byte ATTEMPTS = 'H';
    /** Endpoint state by tenant and sink: {@code ?E}. */
    public static final byte ENDPOINT = 'E';
    /** The endpoint registry by tenant id and sink: {@code ?R}. */
    public static final byte REGISTRY = 'R';
    /** Archive obligations (and, in the audit family, audit entries): {@code ?a}. */
    public static final byte ARCHIVE = 'a';
    /** Cleared markers: {@code ?c}. */
    public static final byte CLEARED = 'c';
    /** Dedupe entries by tenant and idempotency key: {@code ?u}. */
    public static final byte DEDUPE = 'u';
    /** Dedupe expiry keys: {@code ?e}. */
    public static final byte DEDUPE_EXPIRY = 'e';
    /** Tenant id by ordinal: {@code ?t}. */
    public static final byte TENANT_BY_ORD = 't';
    /** Ordinal by tenant id: {@code ?n}. */
    public static final byte ORD_BY_TENANT = 'n';
    /** Ordered deliveries by tenant, sink and ordering group, in the {@code ordering} column family: {@code ?O}. */
    public static final byte ORDER = 'O';
    /** Format-2 due rows: {@code ?d} (migration only). */
    public static final byte DUE_V2 = 'd';
    /** Format-2 inflight rows: {@code ?f} (migration only). */
    public static final byte INFLIGHT_V2 = 'f';

    private Prefixes() {
    }
}

package io.ankusa.keys;

/** Store format numbers. */
public final class StoreFormat {

    /** The format this code writes: tenant-keyed index, tenant ordinals, counters (TEN-1). */
    public static final int CURRENT = 3;

    /** The previous format, whose layout lives in {@code io.ankusa.keys.v2} for the migration. */
    public static final int PREVIOUS = 2;

    private StoreFormat() {
    }
}

package io.ankusa.keys;

/** Store format numbers. */
public final class StoreFormat {

    /** The format this code writes. */
    public static final int CURRENT = 3;

    private StoreFormat() {
    }
}

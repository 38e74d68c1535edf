package io.ankusa.api;

/**
 * The store was written by a newer release ({@link #error()} {@code "store_format_newer"}).
 * Nothing was written to it; open it with a release that supports {@link #found()}.
 */
public final class StoreFormatNewerException extends AnkusaException {

    private static final long serialVersionUID = 1L;

    /** The store's format. */
    private final int found;
    /** The newest format this release reads. */
    private final int supported;

    /**
     * The store is at format {@code found}; this release supports up to {@code supported}.
     *
     * @param found the store's format
     * @param supported the newest format this release reads
     */
    public StoreFormatNewerException(int found, int supported) {
        super("store_format_newer", "store format " + found + " is newer than this release supports (" + supported
                + ")");
        this.found = found;
        this.supported = supported;
    }

    /** {@return the store's format} */
    public int found() {
        return found;
    }

    /** {@return the newest format this release reads} */
    public int supported() {
        return supported;
    }
}

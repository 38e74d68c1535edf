package io.ankusa.store;

/**
 * A forward reader of one family that seeks more than once: many short range reads (one per
 * tenant of a dispatch tick, say) through one backend iterator or cursor, positioned again for each,
 * instead of a new {@link Scan} (a new iterator, a new read transaction) per range.
 *
 * <p>Every {@link #seek} reads a consistent view that holds every commit that returned before the
 * cursor was opened. The backends of this project read every seek from the one view taken when the
 * cursor was opened, so a cursor does not see later commits; like a scan, an open cursor holds that
 * view (on LMDB a read transaction: close it before committing from the same thread). The default
 * ({@link Store#cursor}) opens a scan per seek.
 *
 * <p>Not thread-safe: one thread at a time. Close it (try-with-resources); a cursor still open
 * when its store closes is invalidated, and its next call throws {@link StoreClosedException}.
 */
public interface Cursor extends AutoCloseable {

    /**
     * Positions the cursor at the first key of {@code range} and returns the entries of
     * {@code range} from there, in ascending key order. The scan returned by an earlier seek ends:
     * its next call throws {@link IllegalStateException}. Closing the returned scan leaves the
     * cursor open.
     *
     * @param range the keys to visit
     * @return the entries of {@code range}, valid until the next seek or the cursor's close
     */
    Scan seek(KeyRange range);

    /** Releases the view; idempotent. */
    @Override
    void close();
}

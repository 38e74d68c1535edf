package io.ankusa.store;

import java.util.Iterator;

/**
 * An ordered scan over a consistent view of one family. Close it (try-with-resources); a scan
 * that meets corruption throws {@link StoreCorruptionException} from {@code hasNext}/{@code next},
 * it never ends quietly.
 */
public interface Scan extends Iterator<KeyValue>, AutoCloseable {

    /** Releases the view; idempotent. */
    @Override
    void close();
}

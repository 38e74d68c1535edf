package io.ankusa.store.spi;

import io.ankusa.store.Store;
import io.ankusa.store.StoreOptions;

/**
 * A store backend, registered with {@code provides io.ankusa.store.spi.StoreProvider with …} (or
 * {@code META-INF/services} on the class path). An implementation passes the conformance suite
 * in {@code ankusa-tests}.
 */
public interface StoreProvider {

    /**
     * Short unique name used to choose the backend ({@code rocksdb}, {@code lmdb}).
     *
     * @return the backend's name
     */
    String name();

    /**
     * Opens (or creates) a store; see {@link StoreOptions} for the family rules.
     *
     * @param options the directory, families and settings
     * @return the open store
     */
    Store open(StoreOptions options);
}

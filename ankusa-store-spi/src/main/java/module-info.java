/**
 * The Ankusa storage SPI: a small, byte-oriented, backend-neutral key-value contract with
 * column families, ordered scans, atomic batches and blind-merge 64-bit counters.
 *
 * <p>Users open a store through {@link io.ankusa.store.Stores}; backend authors implement
 * {@link io.ankusa.store.spi.StoreProvider} and register it with {@code provides}.
 */
module io.ankusa.store {
    exports io.ankusa.store;
    exports io.ankusa.store.spi;

    uses io.ankusa.store.spi.StoreProvider;
}

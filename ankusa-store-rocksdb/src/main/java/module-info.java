/**
 * The RocksDB store backend: one RocksDB column family per declared family, RocksDB's native
 * 64-bit add merge operator for counter families, synced commits as a write-ahead-log fsync.
 *
 * <p>Registered as the {@code rocksdb} {@link io.ankusa.store.spi.StoreProvider}; the module
 * exports nothing, so no RocksDB type can reach a caller.
 */
@SuppressWarnings("requires-automatic") // rocksdbjni ships no module descriptor: it is an automatic module
module io.ankusa.store.rocksdb {
    requires io.ankusa.store;
    requires rocksdbjni;

    provides io.ankusa.store.spi.StoreProvider with io.ankusa.store.rocksdb.RocksStoreProvider;
}

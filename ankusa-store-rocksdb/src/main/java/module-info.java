/** The RocksDB store backend (placeholder: provider added with the backend). */
@SuppressWarnings("requires-automatic") // rocksdbjni ships no module descriptor
module io.ankusa.store.rocksdb {
    requires io.ankusa.store;
    requires rocksdbjni;
}

/** The LMDB store backend (placeholder: provider added with the backend). */
@SuppressWarnings("requires-automatic") // lmdbjava ships no module descriptor
module io.ankusa.store.lmdb {
    requires io.ankusa.store;
    requires lmdbjava;
}

/**
 * The LMDB store backend: a {@link io.ankusa.store.spi.StoreProvider} named {@code lmdb}.
 * Exports nothing; a store is opened through {@link io.ankusa.store.Stores}.
 *
 * <p>On a module path, keep {@code org.lmdbjava:native} (the LMDB binaries) on the class path: its
 * file name derives the module name {@code native}, a Java keyword, which the module system refuses.
 */
@SuppressWarnings("requires-automatic") // lmdbjava ships no module descriptor; its types stay internal
module io.ankusa.store.lmdb {
    requires io.ankusa.store;
    requires lmdbjava;
    // lmdbjava's FFI: its buffer proxies hand LMDB jnr-ffi pointers (ScratchByteArrayProxy).
    requires org.jnrproject.ffi;
    // lmdbjava's FFI, jnr-ffi (automatic), generates its bindings with ASM, an explicit module
    // that nothing would otherwise resolve on a pure module path.
    requires org.objectweb.asm;

    provides io.ankusa.store.spi.StoreProvider with io.ankusa.store.lmdb.LmdbStoreProvider;
}

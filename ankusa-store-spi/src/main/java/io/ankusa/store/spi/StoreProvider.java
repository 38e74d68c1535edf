package io.ankusa.store.spi;

import io.ankusa.store.Store;
import io.ankusa.store.StoreOptions;
import java.nio.file.Path;
import java.util.List;

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
     * Opens (or creates) a store; see {@link StoreOptions} for the family rules. Takes the
     * {@link DirectoryLock}, then {@link FamilyCatalog#reconcile} before it touches any data.
     *
     * @param options the directory, families and settings
     * @return the open store
     */
    Store open(StoreOptions options);

    /**
     * The files in {@code directory} that show this backend keeps data there (for example
     * {@code data.mdb}); empty when none, or when the backend keeps no files. A directory with
     * such files but no {@link FamilyCatalog} is refused as corrupt, never taken for a new store.
     * Must not open, lock or create anything.
     *
     * @param directory the store directory
     * @return the data files found
     */
    default List<Path> dataFiles(Path directory) {
        return List.of();
    }
}

package io.ankusa.store.lmdb;

import io.ankusa.store.Store;
import io.ankusa.store.StoreOptions;
import io.ankusa.store.spi.StoreProvider;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The LMDB store backend, named {@value #NAME}: one LMDB named database per family, merges
 * applied in the single write transaction, a memory map that grows when full.
 *
 * <p>Settings ({@link StoreOptions#settings()}; any other key is refused):
 * <ul>
 *   <li>{@code lmdb.mapSize} — initial map size in bytes (default 64 MiB, at least 1 MiB); the map
 *       doubles when it fills, and ahead of need when more than half is used;</li>
 *   <li>{@code lmdb.maxReaders} — reads and open scans at once (default 512);</li>
 *   <li>{@code lmdb.resizeWaitMillis} — how long a commit that must grow the map waits for open
 *       reads and scans to end before it fails with nothing written (default 10000).</li>
 * </ul>
 *
 * <p>Keys are 1 to 511 bytes (LMDB's limit). Needs no JVM flag on JDK 17 or newer.
 */
public final class LmdbStoreProvider implements StoreProvider {

    /** The provider's name. */
    public static final String NAME = "lmdb";

    /** For {@link java.util.ServiceLoader}. */
    public LmdbStoreProvider() {
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Store open(StoreOptions options) {
        return LmdbStore.open(options);
    }

    /** {@code data.mdb}, when present. */
    @Override
    public List<Path> dataFiles(Path directory) {
        Path data = directory.resolve(LmdbStore.DATA_FILE);
        return Files.isRegularFile(data) ? List.of(data) : List.of();
    }
}

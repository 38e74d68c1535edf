package io.ankusa.store.lmdb;

import io.ankusa.store.StoreError;
import io.ankusa.store.spi.BackendSettings;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The backend settings of {@link io.ankusa.store.StoreOptions#settings()} that the lmdb backend
 * understands; every other key is refused.
 *
 * @param mapSize    {@value #MAP_SIZE}: the initial size in bytes of LMDB's memory map (the most
 *                   the store can hold before the map grows); at least 1 MiB, default 64 MiB
 * @param maxReaders {@value #MAX_READERS}: how many reads and open scans may run at once; default 512
 * @param resizeWait {@value #RESIZE_WAIT_MILLIS}: how long a commit that finds the map full waits
 *                   for open reads and scans to end so that the map can grow; default 10 s
 */
record LmdbSettings(long mapSize, int maxReaders, Duration resizeWait) {

    static final String MAP_SIZE = "lmdb.mapSize";
    static final String MAX_READERS = "lmdb.maxReaders";
    static final String RESIZE_WAIT_MILLIS = "lmdb.resizeWaitMillis";

    static final long DEFAULT_MAP_SIZE = 64L << 20;
    static final int DEFAULT_MAX_READERS = 512;
    static final long DEFAULT_RESIZE_WAIT_MILLIS = 10_000;

    private static final long MIN_MAP_SIZE = 1L << 20;
    // Doubling must not overflow; 2^60 bytes is far beyond any address space LMDB can map.
    private static final long MAX_MAP_SIZE = 1L << 60;
    private static final List<String> KEYS = List.of(MAP_SIZE, MAX_READERS, RESIZE_WAIT_MILLIS);

    /** The defaults. */
    static LmdbSettings defaults() {
        return parse(Map.of());
    }

    /** Parses {@code settings}; throws {@link StoreError#INVALID_ARGUMENT} on an unknown key or a bad value. */
    static LmdbSettings parse(Map<String, String> settings) {
        BackendSettings.requireKnown(settings, KEYS, "lmdb");
        long mapSize = BackendSettings.number(settings, MAP_SIZE, DEFAULT_MAP_SIZE, MIN_MAP_SIZE, MAX_MAP_SIZE);
        long maxReaders = BackendSettings.number(settings, MAX_READERS, DEFAULT_MAX_READERS, 1, 1 << 20);
        long waitMillis = BackendSettings.number(settings, RESIZE_WAIT_MILLIS, DEFAULT_RESIZE_WAIT_MILLIS, 0,
                Long.MAX_VALUE / 1_000_000);
        return new LmdbSettings(mapSize, (int) maxReaders, Duration.ofMillis(waitMillis));
    }
}

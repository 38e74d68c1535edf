package io.ankusa.testkit.store;

import io.ankusa.store.Store;
import io.ankusa.store.StoreError;
import io.ankusa.store.StoreException;
import io.ankusa.store.StoreOptions;
import io.ankusa.store.spi.DirectoryLock;
import io.ankusa.store.spi.FamilyCatalog;
import io.ankusa.store.spi.StoreProvider;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The {@code memory} backend: the worked example of a custom adapter that passes
 * {@link StoreConformanceSuite} (see {@code MemoryStoreConformanceTest}).
 *
 * <p>Data lives on the JVM heap, one image per store directory, so a store survives close and
 * reopen within one JVM but not a restart: it is a test double, not a product. The directory itself
 * holds what the SPI helpers keep there — the {@link DirectoryLock} and the {@link FamilyCatalog} —
 * which is what gives this adapter the same refusals as a real backend (locked, family mismatch,
 * not found). The kit registers it as a {@code StoreProvider} service ({@code provides} in its module
 * descriptor, and {@code META-INF/services} for the class path), so {@code Stores.open("memory", …)}
 * finds it wherever the kit is on the test path.
 */
public final class MemoryStoreProvider implements StoreProvider {

    /** The provider name. */
    public static final String NAME = "memory";

    private static final Map<Path, MemoryStore.Image> IMAGES = new ConcurrentHashMap<>();

    /** For {@link java.util.ServiceLoader}. */
    public MemoryStoreProvider() {
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Store open(StoreOptions options) {
        Path directory = options.directory().toAbsolutePath().normalize();
        // Forget the images of deleted directories (a test's temporary store), or a long test run would keep them all.
        IMAGES.keySet().removeIf(d -> !Files.isDirectory(d));
        if (!options.settings().isEmpty()) {
            throw new StoreException(StoreError.INVALID_ARGUMENT,
                    "the memory backend takes no settings: " + options.settings().keySet());
        }
        if (FamilyCatalog.inspect(directory).filter(FamilyCatalog::created).isEmpty() && !options.createIfMissing()) {
            throw new StoreException(StoreError.NOT_FOUND, "no store in " + directory);
        }
        DirectoryLock lock = DirectoryLock.acquire(directory);
        try {
            // Reconcile before touching data, as the SPI asks every backend to.
            boolean exists = FamilyCatalog.reconcile(directory, NAME, options.families(), options.createIfMissing());
            MemoryStore.Image image = exists ? IMAGES.get(directory) : new MemoryStore.Image();
            if (image == null) {
                throw new StoreException(StoreError.IO, "the memory store in " + directory
                        + " was written by another JVM; its data did not outlive it");
            }
            IMAGES.put(directory, image);
            if (!exists) {
                FamilyCatalog.markCreated(directory);
            }
            return new MemoryStore(directory, options.families(), image, lock, IMAGES::put);
        } catch (RuntimeException e) {
            lock.close();
            throw e;
        }
    }
}

package io.ankusa.cli.command;

import io.ankusa.queue.Queue;
import io.ankusa.queue.StoreUpgrade;
import io.ankusa.store.FamilyKind;
import io.ankusa.store.FamilySpec;
import io.ankusa.store.Store;
import io.ankusa.store.StoreOptions;
import io.ankusa.store.Stores;
import io.ankusa.store.spi.FamilyCatalog;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Opens the store a command works on, refusing a path with no store before anything is created
 * there (opening a queue creates a missing store, which a read command must never do).
 *
 * <p>Whether a directory holds a store is decided by {@link FamilyCatalog#inspect}, the same
 * decision every backend takes when the library opens a store: a damaged catalog, or data files
 * without one, is corruption ({@link ExitCode#STORE_CORRUPT}) here as there.
 */
final class StoreAccess {

    private StoreAccess() {
    }

    /**
     * Whether {@code directory} holds a store whose creation finished.
     *
     * @throws io.ankusa.store.StoreCorruptionException when its catalog is damaged, or missing next to data files
     */
    static boolean holdsStore(Path directory) {
        return FamilyCatalog.inspect(directory).filter(FamilyCatalog::created).isPresent();
    }

    /**
     * Opens the queue over the existing store of {@code options}: a path without one is
     * {@link ExitCode#NO_STORE}, a store at an older format is {@link ExitCode#NEEDS_MIGRATION}
     * (opening a queue would migrate it, a one-way step that only {@code ankusa migrate} takes).
     */
    static Queue openQueue(AnkusaCommand options) {
        requireStore(options);
        List<StoreUpgrade.Step> pending = StoreUpgrade.dryRun(options.queueConfig());
        if (!pending.isEmpty()) {
            throw new CommandFailure(ExitCode.NEEDS_MIGRATION, "store " + options.store() + " is at format "
                    + pending.get(0).from()
                    + "; upgrade it with 'ankusa migrate' (after a backup: 'ankusa checkpoint DIR')");
        }
        return Queue.open(options.queueConfig());
    }

    /**
     * Opens the existing store of {@code options} through the storage SPI alone, with the families
     * its catalog lists: no format check, no recovery, nothing written. For byte-level work
     * (checkpoints).
     */
    static Store openStore(AnkusaCommand options) {
        Path directory = options.store();
        requireStore(options);
        Map<String, FamilyKind> kinds = FamilyCatalog.read(directory).orElseThrow();
        List<FamilySpec> families = kinds.entrySet().stream()
                .map(e -> e.getValue() == FamilyKind.COUNTER ? FamilySpec.counter(e.getKey())
                        : FamilySpec.plain(e.getKey()))
                .toList();
        return Stores.open(options.backend(), StoreOptions.existing(directory, families));
    }

    /** Refuses a path without a store, and a store another backend than {@code --backend} wrote. */
    static void requireStore(AnkusaCommand options) {
        Path directory = options.store();
        if (!holdsStore(directory)) {
            throw new CommandFailure(ExitCode.NO_STORE, "no store at " + directory.toAbsolutePath().normalize()
                    + " (pass --store DIR, or create a demo store with 'ankusa demo')");
        }
        // Checked here too: a backend asked to open another backend's store may first find "no store" in it.
        FamilyCatalog.backend(directory).filter(writer -> !writer.equals(options.backend())).ifPresent(writer -> {
            throw new CommandFailure(ExitCode.BACKEND_MISMATCH, "store " + directory + " was written by the '" + writer
                    + "' backend; it cannot be opened with '" + options.backend() + "' (pass --backend " + writer
                    + ")");
        });
    }
}

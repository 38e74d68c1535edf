package io.ankusa.cli.command;

import io.ankusa.queue.Queue;
import io.ankusa.store.FamilyKind;
import io.ankusa.store.FamilySpec;
import io.ankusa.store.Store;
import io.ankusa.store.StoreOptions;
import io.ankusa.store.Stores;
import io.ankusa.store.spi.FamilyCatalog;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Opens the store a command works on, refusing a path with no store before anything is created
 * there (opening a queue creates a missing store, which a read command must never do).
 *
 * <p>A store is a directory with a family catalog ({@value FamilyCatalog#FILE_NAME}): every
 * backend writes one before it writes anything else.
 */
final class StoreAccess {

    private StoreAccess() {
    }

    /** Whether {@code directory} holds a store. */
    static boolean holdsStore(Path directory) {
        return Files.isRegularFile(directory.resolve(FamilyCatalog.FILE_NAME));
    }

    /** Opens the queue over the existing store of {@code options}; a path without one is {@link ExitCode#NO_STORE}. */
    static Queue openQueue(AnkusaCommand options) {
        requireStore(options.store());
        return Queue.open(options.queueConfig());
    }

    /**
     * Opens the existing store of {@code options} through the storage SPI alone, with the families
     * its catalog lists: no format check, no recovery, nothing written. For byte-level work
     * (checkpoints).
     */
    static Store openStore(AnkusaCommand options) {
        Path directory = options.store();
        requireStore(directory);
        Map<String, FamilyKind> kinds = FamilyCatalog.read(directory).orElseThrow();
        List<FamilySpec> families = kinds.entrySet().stream()
                .map(e -> e.getValue() == FamilyKind.COUNTER ? FamilySpec.counter(e.getKey()) : FamilySpec.plain(e.getKey()))
                .toList();
        return Stores.open(options.backend(), StoreOptions.existing(directory, families));
    }

    static void requireStore(Path directory) {
        if (!holdsStore(directory)) {
            throw new CommandFailure(ExitCode.NO_STORE, "no store at " + directory.toAbsolutePath().normalize()
                    + " (pass --store DIR, or create a demo store with 'ankusa demo')");
        }
    }
}

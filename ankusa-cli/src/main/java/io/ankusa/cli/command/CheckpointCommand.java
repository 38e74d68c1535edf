package io.ankusa.cli.command;

import io.ankusa.store.Store;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/**
 * {@code ankusa checkpoint DIR}: a consistent copy of the store that opens as a store (the
 * backend's checkpoint, with the family catalog). Works through the storage SPI only: the store is
 * copied as it is, without booting the queue (no inflight recovery, no migration).
 */
@Command(name = "checkpoint", mixinStandardHelpOptions = true,
        header = "Write a consistent copy of the store into DIR.",
        description = {
            "DIR must not exist; the copy opens as a store. It is made through the storage SPI on the stopped",
            "store, without booting the queue: the backup to take before 'ankusa migrate'."})
final class CheckpointCommand implements Callable<Integer> {

    @ParentCommand
    AnkusaCommand root;

    @Parameters(paramLabel = "DIR", description = "Where to write the copy; must not exist.")
    Path target;

    @Override
    public Integer call() {
        StoreAccess.requireStore(root);
        if (Files.exists(target)) {
            throw new CommandFailure(ExitCode.TARGET_EXISTS, "checkpoint target " + target + " exists");
        }
        try (Store store = StoreAccess.openStore(root)) {
            store.checkpoint(target);
        }
        root.spec.commandLine().getOut().println("checkpoint of " + root.store() + " written to " + target);
        return ExitCode.OK.code();
    }
}

package io.ankusa.tests.upgrade;

import io.ankusa.api.QueueConfig;
import io.ankusa.queue.migration.FormatGuard;
import io.ankusa.store.Store;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Paths;

/**
 * The migrating process of the kill -9 test: migrates the store {@code args[1]} on backend
 * {@code args[0]} (clock at {@link StoreFixtures#EPOCH}) in steps of {@value Upgrades#STEP_ROWS}
 * rows, prints {@code committed <n>} after every
 * committed step and then waits for a line on stdin before going on. The parent acknowledges each
 * step and kills this process at a point of its choosing, so the child can never run more than
 * one step past the step the parent has seen.
 */
public final class MigrationChild {

    private MigrationChild() {
    }

    /** Runs the migration. */
    public static void main(String[] args) {
        BufferedReader parent = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        QueueConfig config = Upgrades.config(args[0], Paths.get(args[1]));
        try (Store store = Upgrades.openRaw(config.backend(), config.directory())) {
            FormatGuard.prepare(store, Upgrades.smallSteps().withListener(progress -> {
                System.out.println("committed " + progress.steps() + (progress.done() ? " done" : ""));
                System.out.flush();
                try {
                    parent.readLine();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }), config);
        }
        System.out.println("finished");
    }
}

package io.ankusa.queue.migration;

import java.util.Objects;

/**
 * One migration a store still needs, as {@link Migrations#pending} lists it (the API's
 * {@code StoreUpgrade.Step} is built from it).
 *
 * @param from        the format it reads
 * @param to          the format it writes
 * @param description what it does
 * @param resuming    whether an interrupted run of it left a cursor to continue from
 */
public record PendingMigration(int from, int to, String description, boolean resuming) {

    /** Checks the fields. */
    public PendingMigration {
        Objects.requireNonNull(description, "description");
    }
}

package io.ankusa.queue.migration;

/**
 * One store migration, from format {@link #from()} to {@link #to()}, run as a series of bounded
 * steps by {@link Migrations}.
 *
 * <p>A step reads what it needs and returns one batch of ops and the cursor to continue from; it
 * writes nothing itself. The runner commits the batch, the cursor and (in the last step) the new
 * format stamp together in one synced batch, so a crash leaves the store after some whole number
 * of steps, and a resumed run continues from the stored cursor. A step must therefore be a
 * function of the store as committed and the cursor: nothing it learned in an earlier step may be
 * assumed unless it is in the store.
 */
public interface Migration {

    /** The format this migration reads. */
    int from();

    /** The format it leaves the store at. */
    int to();

    /** What it does, in one line (shown by a dry run after {@code "from -> to: "}). */
    String description();

    /**
     * The next step.
     *
     * @param context the store, the queue's configuration and when the migration started
     * @param cursor  where the previous step stopped; empty for the first step
     * @return the step's ops, its cursor, and whether it was the last
     */
    MigrationStep step(MigrationContext context, byte[] cursor);
}

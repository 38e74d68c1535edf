package io.ankusa.api;

/**
 * Where hooks go for long-term keeping when the queue's archive is on. The queue's archive
 * compactor hands every hook that has an archive obligation to {@link #archive}, oldest first, and
 * keeps the hook in the store until the obligation is settled or dropped.
 *
 * <p>At least once: a crash between a successful {@code archive} and the commit that settles the
 * obligation hands the same hook over again, so archive idempotently (key by
 * {@link ArchivedHook#seq()}). Called from one compactor thread at a time.
 */
@FunctionalInterface
public interface Archiver {

    /**
     * Archives {@code hook}. Return {@link ArchiveOutcome#ARCHIVED} once it is safely kept,
     * {@link ArchiveOutcome#REJECTED} to give up on it for good; throw to leave the obligation in
     * place and try again in a later round.
     *
     * @param hook the hook to keep, with its seq and when it was received
     * @return whether the hook is kept or given up on
     * @throws Exception when archiving failed and should be retried later
     */
    ArchiveOutcome archive(ArchivedHook hook) throws Exception;
}

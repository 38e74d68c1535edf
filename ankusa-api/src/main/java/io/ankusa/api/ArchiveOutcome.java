package io.ankusa.api;

/** What an {@link Archiver} did with a hook. */
public enum ArchiveOutcome {
    /** The hook is archived: its archive obligation is settled. */
    ARCHIVED,
    /** The hook will never be archived (the archiver refuses it for good): its obligation is dropped. */
    REJECTED
}

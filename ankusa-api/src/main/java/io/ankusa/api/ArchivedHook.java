package io.ankusa.api;

import java.time.Instant;
import java.util.Objects;

/**
 * A stored hook handed to an {@link Archiver}.
 *
 * @param seq        the hook's commit sequence number (unique in the store; use it as the archive key)
 * @param receivedAt when the queue accepted the hook
 * @param hook       the hook as ingested
 */
public record ArchivedHook(long seq, Instant receivedAt, Hook hook) {

    /**
     * Checks the fields.
     *
     * @param seq the hook's commit sequence number (unique in the store; use it as the archive key)
     * @param receivedAt when the queue accepted the hook
     * @param hook the hook as ingested
     */
    public ArchivedHook {
        if (seq < 1) {
            throw new IllegalArgumentException("seq must be >= 1: " + seq);
        }
        Objects.requireNonNull(receivedAt, "receivedAt");
        Objects.requireNonNull(hook, "hook");
    }
}

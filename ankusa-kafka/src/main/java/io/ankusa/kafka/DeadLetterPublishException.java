package io.ankusa.kafka;

import io.ankusa.api.AnkusaException;

/**
 * Kafka did not acknowledge a record of the dead-letter topic (a dead letter or the tombstone of
 * a replayed or purged one). The store is unchanged by the failed publish; a dead letter not
 * published holds the partition's watermark, and is published again at the next commit.
 */
public final class DeadLetterPublishException extends AnkusaException {

    private static final long serialVersionUID = 1L;

    /**
     * An exception for a publish Kafka did not acknowledge.
     *
     * @param message what was not published, and where
     * @param cause   Kafka's error
     */
    public DeadLetterPublishException(String message, Throwable cause) {
        super("dead_letter_publish", message, cause);
    }
}

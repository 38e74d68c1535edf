package io.ankusa.api;

import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * Where a hook was read from in an external, ordered intake log (for example a Kafka topic
 * partition and its offset), handed to {@code Queue.ingest} with the hook: the queue writes it in
 * the same synced batch as the hook, so a reader of the log that resumes from
 * {@code Queue.intakePosition(source)} ingests every record once. The queue keeps, per source, the
 * position of the last hook it accepted; it does not interpret the source or the offset.
 *
 * @param source the log's name, 1..200 printable ASCII characters (for example {@code hooks-3})
 * @param offset the hook's position in that log, 0 or more; a source's positions rise with ingest order
 */
public record IntakePosition(String source, long offset) {

    /** The longest source name, in bytes (printable ASCII: one byte per character). */
    public static final int SOURCE_MAX_BYTES = 200;

    /**
     * Checks the fields.
     *
     * @param source the log's name, 1..200 printable ASCII characters
     * @param offset the hook's position in that log, 0 or more
     * @throws IllegalArgumentException when the source is empty, too long or not printable ASCII,
     *         or the offset is negative
     */
    public IntakePosition {
        Objects.requireNonNull(source, "source");
        if (source.isEmpty() || source.length() > SOURCE_MAX_BYTES) {
            throw new IllegalArgumentException("intake source must be 1.." + SOURCE_MAX_BYTES + " characters: "
                    + source.length());
        }
        for (int i = 0; i < source.length(); i++) {
            char c = source.charAt(i);
            if (c < 0x21 || c > 0x7E) {
                throw new IllegalArgumentException("intake source must be printable ASCII without spaces, at index "
                        + i);
            }
        }
        if (offset < 0) {
            throw new IllegalArgumentException("intake offset must be >= 0: " + offset);
        }
    }

    /**
     * The source's bytes, as stored in the key of its position.
     *
     * @return the source as US-ASCII bytes
     */
    public byte[] sourceBytes() {
        return source.getBytes(StandardCharsets.US_ASCII);
    }
}

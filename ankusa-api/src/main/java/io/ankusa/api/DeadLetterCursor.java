package io.ankusa.api;

/**
 * A position in the dead-letter listing, which is ordered newest first by (dead-letter time, seq,
 * sink) — the same order with or without a tenant filter, so one cursor type pages both. A page
 * read {@link DeadLetterQuery#after after} a cursor starts with the next older letter; letters
 * dead-lettered meanwhile (newer) are not seen by that walk, and letters revived or purged
 * meanwhile simply drop out.
 *
 * <p>{@link #token()} and {@link #parse} turn a cursor into a short string and back, for command
 * lines and HTTP query parameters.
 *
 * @param at   dead-letter time, epoch milliseconds
 * @param seq  the hook's seq
 * @param sink the sink number
 */
public record DeadLetterCursor(long at, long seq, int sink) {

    /**
     * Checks the ranges.
     *
     * @param at dead-letter time, epoch milliseconds
     * @param seq the hook's seq
     * @param sink the sink number
     */
    public DeadLetterCursor {
        if (at < 0 || seq < 0) {
            throw new IllegalArgumentException("at and seq must be >= 0: " + at + ", " + seq);
        }
        if (sink < 0 || sink > 0xFFFF) {
            throw new IllegalArgumentException("sink out of range 0..65535: " + sink);
        }
    }

    /** {@return the cursor as {@code <at>-<seq>-<sink>}, for example {@code 1767225600000-42-0}} */
    public String token() {
        return at + "-" + seq + "-" + sink;
    }

    /**
     * The cursor written by {@link #token()}.
     *
     * @param token a string written by {@link #token()}
     * @return the cursor it stands for
     * @throws IllegalArgumentException when {@code token} is not three dash-separated numbers in range
     */
    public static DeadLetterCursor parse(String token) {
        String[] parts = token.split("-", -1);
        if (parts.length != 3) {
            throw new IllegalArgumentException("a dead-letter cursor is <at>-<seq>-<sink>: '" + token + "'");
        }
        try {
            return new DeadLetterCursor(Long.parseLong(parts[0]), Long.parseLong(parts[1]), Integer.parseInt(parts[2]));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("a dead-letter cursor is <at>-<seq>-<sink>: '" + token + "'", e);
        }
    }
}

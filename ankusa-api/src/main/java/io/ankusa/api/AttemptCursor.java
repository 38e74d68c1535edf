package io.ankusa.api;

/**
 * A position in an attempt listing, which is ordered newest first by (attempt time, seq, sink,
 * attempt). A page read {@link AttemptQuery#after after} a cursor starts with the next older attempt.
 *
 * @param at      when the attempt started, epoch milliseconds
 * @param seq     the hook's seq
 * @param sink    the sink number
 * @param attempt the attempt number
 */
public record AttemptCursor(long at, long seq, int sink, int attempt) {

    /**
     * Checks the ranges.
     *
     * @param at when the attempt started, epoch milliseconds
     * @param seq the hook's seq
     * @param sink the sink number
     * @param attempt the attempt number
     */
    public AttemptCursor {
        if (at < 0 || seq < 0 || attempt < 0) {
            throw new IllegalArgumentException("at, seq and attempt must be >= 0: " + at + ", " + seq + ", " + attempt);
        }
        if (sink < 0 || sink > 0xFFFF) {
            throw new IllegalArgumentException("sink out of range 0..65535: " + sink);
        }
    }

    /** {@return the cursor as {@code <at>-<seq>-<sink>-<attempt>}} */
    public String token() {
        return at + "-" + seq + "-" + sink + "-" + attempt;
    }

    /**
     * The cursor written by {@link #token()}.
     *
     * @param token a string written by {@link #token()}
     * @return the cursor it stands for
     * @throws IllegalArgumentException when {@code token} is not four dash-separated numbers in range
     */
    public static AttemptCursor parse(String token) {
        String[] parts = token.split("-", -1);
        if (parts.length != 4) {
            throw new IllegalArgumentException("an attempt cursor is <at>-<seq>-<sink>-<attempt>: '" + token + "'");
        }
        try {
            return new AttemptCursor(Long.parseLong(parts[0]), Long.parseLong(parts[1]), Integer.parseInt(parts[2]),
                    Integer.parseInt(parts[3]));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("an attempt cursor is <at>-<seq>-<sink>-<attempt>: '" + token + "'", e);
        }
    }
}

package io.ankusa.dispatch.http;

import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Optional;

/**
 * Reads a {@code Retry-After} value (RFC 9110 §10.2.3): delay-seconds, or an HTTP-date in the
 * IMF-fixdate form ({@code Sun, 06 Nov 1994 08:49:37 GMT}). A date in the past is a zero delay.
 * Anything else, the obsolete date forms included, is no hint at all.
 */
final class RetryAfterHeader {

    /** More digits than this would overflow a {@code long}: such a delay is effectively "forever". */
    private static final int MAX_DIGITS = 18;

    private RetryAfterHeader() {
    }

    static Optional<Duration> parse(String value, Instant now) {
        String text = value.strip();
        if (text.isEmpty()) {
            return Optional.empty();
        }
        if (text.chars().allMatch(c -> c >= '0' && c <= '9')) {
            return Optional.of(text.length() > MAX_DIGITS
                    ? Duration.ofSeconds(Long.MAX_VALUE)
                    : Duration.ofSeconds(Long.parseLong(text)));
        }
        try {
            Instant at = ZonedDateTime.parse(text, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
            return Optional.of(at.isAfter(now) ? Duration.between(now, at) : Duration.ZERO);
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }
}

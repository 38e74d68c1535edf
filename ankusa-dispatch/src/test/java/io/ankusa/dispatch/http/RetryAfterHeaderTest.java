package io.ankusa.dispatch.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class RetryAfterHeaderTest {

    private static final Instant NOW = Instant.parse("1994-11-06T08:49:00Z");

    @Test
    void readsDelaySeconds() {
        assertThat(RetryAfterHeader.parse("120", NOW)).contains(Duration.ofSeconds(120));
        assertThat(RetryAfterHeader.parse(" 0 ", NOW)).contains(Duration.ZERO);
        assertThat(RetryAfterHeader.parse("99999999999999999999999", NOW)).contains(Duration.ofSeconds(Long.MAX_VALUE));
    }

    @Test
    void readsAnHttpDateRelativeToNow() {
        assertThat(RetryAfterHeader.parse("Sun, 06 Nov 1994 08:49:37 GMT", NOW)).contains(Duration.ofSeconds(37));
        assertThat(RetryAfterHeader.parse("Sun, 06 Nov 1994 08:48:00 GMT", NOW)).contains(Duration.ZERO);
    }

    @Test
    void anythingElseIsNoHint() {
        assertThat(RetryAfterHeader.parse("", NOW)).isEmpty();
        assertThat(RetryAfterHeader.parse("-5", NOW)).isEmpty();
        assertThat(RetryAfterHeader.parse("1.5", NOW)).isEmpty();
        assertThat(RetryAfterHeader.parse("soon", NOW)).isEmpty();
        assertThat(RetryAfterHeader.parse("Sunday, 06-Nov-94 08:49:37 GMT", NOW)).isEmpty();
    }
}

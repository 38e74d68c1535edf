package io.ankusa.dispatch.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.dispatch.SinkOutcome;
import java.io.IOException;
import java.net.ConnectException;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpHeaders;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;

/** The status and failure table of {@link HttpSink}, row by row. */
class HttpOutcomesTest {

    private static final Instant NOW = Instant.parse("2026-03-04T05:06:07Z");
    private final HttpOutcomes outcomes = new HttpOutcomes(false, Duration.ofSeconds(5), Duration.ofSeconds(15));

    private static HttpHeaders headers(String... nameValue) {
        var map = new java.util.LinkedHashMap<String, List<String>>();
        for (int i = 0; i < nameValue.length; i += 2) {
            map.put(nameValue[i], List.of(nameValue[i + 1]));
        }
        return HttpHeaders.of(Map.copyOf(map), (name, value) -> true);
    }

    @Test
    void every_2xx_is_delivered() {
        for (int status = 200; status <= 299; status++) {
            assertThat(outcomes.ofResponse(status, headers(), NOW)).as("status %d", status)
                    .isEqualTo(SinkOutcome.delivered());
        }
    }

    @Test
    void a_4xx_is_dead_except_408_and_429_and_unless_configured() {
        var retrying = new HttpOutcomes(true, Duration.ofSeconds(5), Duration.ofSeconds(15));
        for (int status = 400; status <= 499; status++) {
            SinkOutcome outcome = outcomes.ofResponse(status, headers(), NOW);
            SinkOutcome configured = retrying.ofResponse(status, headers(), NOW);
            if (status == 410) {
                assertThat(outcome).isInstanceOf(SinkOutcome.Dead.class);
                assertThat(configured).as("410 stays dead").isInstanceOf(SinkOutcome.Dead.class);
            } else if (status == 408 || status == 429) {
                assertThat(outcome).as("status %d", status).isInstanceOf(SinkOutcome.Retry.class);
            } else {
                assertThat(outcome).as("status %d", status).isEqualTo(SinkOutcome.dead("http " + status));
                assertThat(configured).as("status %d", status).isEqualTo(SinkOutcome.retry("http " + status));
            }
        }
    }

    @Test
    void a_5xx_or_3xx_is_retried_and_a_retry_after_becomes_the_hint() {
        assertThat(outcomes.ofResponse(500, headers(), NOW)).isEqualTo(SinkOutcome.retry("http 500"));
        assertThat(outcomes.ofResponse(502, headers("retry-after", "7"), NOW))
                .isEqualTo(SinkOutcome.retryAfter(Duration.ofSeconds(7), "http 502 (retry-after PT7S)"));
        assertThat(outcomes.ofResponse(503, headers("Retry-After", "Wed, 04 Mar 2026 05:07:07 GMT"), NOW))
                .isEqualTo(SinkOutcome.retryAfter(Duration.ofSeconds(60), "http 503 (retry-after PT1M)"));
        assertThat(outcomes.ofResponse(503, headers("Retry-After", "later"), NOW)).isEqualTo(SinkOutcome.retry("http 503"));
        SinkOutcome redirect = outcomes.ofResponse(301, headers("location", "https://new.example/hooks"), NOW);
        assertThat(redirect).isInstanceOf(SinkOutcome.Retry.class);
        assertThat(((SinkOutcome.Retry) redirect).reason()).contains("301", "https://new.example/hooks");
    }

    @Test
    void failures_before_a_response_are_retried_and_say_which() {
        assertThat(reason(outcomes.ofFailure(new CompletionException(new HttpConnectTimeoutException("x")))))
                .isEqualTo("connect timeout: no connection within PT5S");
        assertThat(reason(outcomes.ofFailure(new HttpTimeoutException("request timed out"))))
                .isEqualTo("timeout: no response within PT15S");
        assertThat(reason(outcomes.ofFailure(new CompletionException(new ConnectException()))))
                .startsWith("connect failed: ConnectException");
        assertThat(reason(outcomes.ofFailure(new IOException("connection reset"))))
                .isEqualTo("i/o error: IOException connection reset");
        assertThat(reason(outcomes.ofFailure(new IllegalStateException("odd"))))
                .isEqualTo("unexpected failure: IllegalStateException odd");
    }

    private static String reason(SinkOutcome outcome) {
        assertThat(outcome).isInstanceOf(SinkOutcome.Retry.class);
        return ((SinkOutcome.Retry) outcome).reason();
    }
}

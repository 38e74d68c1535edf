package io.ankusa.dispatch.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.api.AttemptErrorClass;
import io.ankusa.dispatch.sink.SinkOutcome;
import java.io.IOException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.CompletionException;
import org.apache.hc.client5.http.ConnectTimeoutException;
import org.junit.jupiter.api.Test;

/** The status and failure table of {@link HttpSink}, row by row. */
class HttpOutcomesTest {

    private static final Instant NOW = Instant.parse("2026-03-04T05:06:07Z");
    private final HttpOutcomes outcomes = new HttpOutcomes(Set.of(), Duration.ofSeconds(5), Duration.ofSeconds(15));

    private static ResponseHead head(int status) {
        return new ResponseHead(status, Optional.empty(), Optional.empty());
    }

    private static ResponseHead head(int status, String retryAfter) {
        return new ResponseHead(status, Optional.of(retryAfter), Optional.empty());
    }

    @Test
    void every2xxIsDelivered() {
        for (int status = 200; status <= 299; status++) {
            assertThat(outcomes.ofResponse(head(status), NOW)).as("status %d", status)
                    .isEqualTo(SinkOutcome.delivered(status));
        }
    }

    @Test
    void everyNon2xxIsRetriedByDefaultExcept410WhichIsEndpointGone() {
        for (int status = 100; status <= 599; status++) {
            if (status >= 200 && status <= 299) {
                continue;
            }
            SinkOutcome outcome = outcomes.ofResponse(head(status), NOW);
            if (status == 410) {
                assertThat(outcome).isInstanceOf(SinkOutcome.EndpointGone.class);
                assertThat(outcome.reason()).startsWith("endpoint_gone: http 410");
            } else {
                assertThat(outcome).as("status %d", status).isInstanceOf(SinkOutcome.Retry.class);
            }
        }
    }

    @Test
    void configuredStatusesAreDeadAtOnce() {
        var strict = new HttpOutcomes(Set.of(400, 422), Duration.ofSeconds(5), Duration.ofSeconds(15));
        assertThat(strict.ofResponse(head(422), NOW)).isEqualTo(new SinkOutcome.Dead("http 422 (configured as permanent)", OptionalInt.of(422), AttemptErrorClass.HTTP_4XX));
        assertThat(strict.ofResponse(head(404), NOW)).isEqualTo(http(404, Optional.empty(), "http 404"));
    }

    @Test
    void a5xxOr3xxIsRetriedAndARetryAfterBecomesTheHint() {
        assertThat(outcomes.ofResponse(head(500), NOW)).isEqualTo(http(500, Optional.empty(), "http 500"));
        assertThat(outcomes.ofResponse(head(502, "7"), NOW))
                .isEqualTo(http(502, Optional.of(Duration.ofSeconds(7)), "http 502 (retry-after PT7S)"));
        assertThat(outcomes.ofResponse(head(503, "Wed, 04 Mar 2026 05:07:07 GMT"), NOW))
                .isEqualTo(http(503, Optional.of(Duration.ofSeconds(60)), "http 503 (retry-after PT1M)"));
        assertThat(outcomes.ofResponse(head(503, "later"), NOW)).isEqualTo(http(503, Optional.empty(), "http 503"));
        SinkOutcome redirect = outcomes.ofResponse(
                new ResponseHead(301, Optional.empty(), Optional.of("https://new.example/hooks")), NOW);
        assertThat(redirect).isInstanceOf(SinkOutcome.Retry.class);
        assertThat(redirect.reason()).contains("301", "https://new.example/hooks");
    }

    @Test
    void failuresBeforeAResponseAreRetriedAndSayWhichButARefusedAddressIsDead() {
        assertThat(reason(outcomes.ofFailure(new CompletionException(new ConnectTimeoutException("x")))))
                .isEqualTo("connect timeout: no connection within PT5S");
        assertThat(reason(outcomes.ofFailure(new SocketTimeoutException("read timed out"))))
                .isEqualTo("timeout: no response within PT15S");
        assertThat(reason(outcomes.ofFailure(new CompletionException(new ConnectException()))))
                .startsWith("connect failed: ConnectException");
        assertThat(reason(outcomes.ofFailure(new UnknownHostException("nowhere.example"))))
                .startsWith("dns failed");
        assertThat(reason(outcomes.ofFailure(new IOException("connection reset"))))
                .isEqualTo("i/o error: IOException connection reset");
        assertThat(reason(outcomes.ofFailure(new IllegalStateException("odd"))))
                .isEqualTo("unexpected failure: IllegalStateException odd");
        assertThat(outcomes.ofFailure(new CompletionException(new AddressRefusedException("ssrf_refused: x is private"))))
                .isEqualTo(SinkOutcome.dead("ssrf_refused: x is private", AttemptErrorClass.SSRF_REFUSED));
    }

    @Test
    void everyFailureHasItsClassAndEveryAnswerItsStatus() {
        assertThat(outcomes.ofResponse(head(301), NOW).errorClass()).isEqualTo(AttemptErrorClass.HTTP_3XX);
        assertThat(outcomes.ofResponse(head(429), NOW).errorClass()).isEqualTo(AttemptErrorClass.HTTP_4XX);
        assertThat(outcomes.ofResponse(head(410), NOW).status()).hasValue(410);
        assertThat(outcomes.ofResponse(head(599), NOW).status()).hasValue(599);
        assertThat(outcomes.ofResponse(head(101), NOW).errorClass()).isEqualTo(AttemptErrorClass.HTTP_OTHER);
        assertThat(outcomes.ofFailure(new UnknownHostException("nowhere.example")).errorClass()).isEqualTo(AttemptErrorClass.DNS);
        assertThat(outcomes.ofFailure(new SocketTimeoutException()).errorClass()).isEqualTo(AttemptErrorClass.TIMEOUT);
        assertThat(outcomes.ofFailure(new ConnectException("refused")).errorClass()).isEqualTo(AttemptErrorClass.CONNECT);
        assertThat(outcomes.ofFailure(new IOException("reset")).errorClass()).isEqualTo(AttemptErrorClass.IO);
        assertThat(outcomes.ofFailure(new IOException("reset")).status()).isEmpty();
    }

    private static SinkOutcome http(int status, Optional<Duration> after, String reason) {
        return new SinkOutcome.Retry(after, reason, OptionalInt.of(status), AttemptErrorClass.ofStatus(status));
    }

    private static String reason(SinkOutcome outcome) {
        assertThat(outcome).isInstanceOf(SinkOutcome.Retry.class);
        return outcome.reason();
    }
}

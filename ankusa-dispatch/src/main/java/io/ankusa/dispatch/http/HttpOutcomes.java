package io.ankusa.dispatch.http;

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
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import org.apache.hc.client5.http.ConnectTimeoutException;

/**
 * Maps what an HTTP exchange ended with to a {@link SinkOutcome}; the table is in
 * {@link HttpSink}'s class comment.
 */
final class HttpOutcomes {

    private final Set<Integer> deadStatuses;
    private final Duration connectTimeout;
    private final Duration requestTimeout;

    HttpOutcomes(Set<Integer> deadStatuses, Duration connectTimeout, Duration requestTimeout) {
        this.deadStatuses = Set.copyOf(deadStatuses);
        this.connectTimeout = connectTimeout;
        this.requestTimeout = requestTimeout;
    }

    /** The outcome of a response with this head, received at {@code now}. */
    SinkOutcome ofResponse(ResponseHead head, Instant now) {
        int status = head.status();
        if (status >= 200 && status <= 299) {
            return SinkOutcome.delivered(status);
        }
        OptionalInt code = OptionalInt.of(status);
        AttemptErrorClass errorClass = AttemptErrorClass.ofStatus(status);
        String reason = "http " + status;
        if (status == 410) {
            return SinkOutcome.endpointGone(reason + ": the endpoint asked not to be sent more");
        }
        if (deadStatuses.contains(status)) {
            return new SinkOutcome.Dead(reason + " (configured as permanent)", code, errorClass);
        }
        if (status >= 300 && status <= 399) {
            reason += " (redirects are not followed; location " + head.location().orElse("absent") + ")";
        }
        Optional<Duration> hint = head.retryAfter().flatMap(value -> RetryAfterHeader.parse(value, now));
        if (hint.isPresent()) {
            return new SinkOutcome.Retry(hint, reason + " (retry-after " + hint.get() + ")", code, errorClass);
        }
        return new SinkOutcome.Retry(Optional.empty(), reason, code, errorClass);
    }

    /** The outcome of an exchange that failed before a response came. */
    SinkOutcome ofFailure(Throwable failure) {
        Throwable cause = unwrap(failure);
        if (cause instanceof AddressRefusedException) {
            return SinkOutcome.dead(cause.getMessage(), AttemptErrorClass.SSRF_REFUSED);
        }
        if (cause instanceof ConnectTimeoutException) {
            return SinkOutcome.retry("connect timeout: no connection within " + connectTimeout,
                    AttemptErrorClass.CONNECT);
        }
        if (cause instanceof SocketTimeoutException) {
            return SinkOutcome.retry("timeout: no response within " + requestTimeout, AttemptErrorClass.TIMEOUT);
        }
        if (cause instanceof TimeoutException) {
            return SinkOutcome.retry("pool timeout: no free connection to the host: " + describe(cause),
                    AttemptErrorClass.POOL);
        }
        if (cause instanceof UnknownHostException) {
            return SinkOutcome.retry("dns failed: " + describe(cause), AttemptErrorClass.DNS);
        }
        if (cause instanceof ConnectException) {
            return SinkOutcome.retry("connect failed: " + describe(cause), AttemptErrorClass.CONNECT);
        }
        if (cause instanceof IOException) {
            return SinkOutcome.retry("i/o error: " + describe(cause), AttemptErrorClass.IO);
        }
        return SinkOutcome.retry("unexpected failure: " + describe(cause), AttemptErrorClass.OTHER);
    }

    private static Throwable unwrap(Throwable failure) {
        Throwable cause = failure;
        while ((cause instanceof CompletionException || cause instanceof ExecutionException)
                && cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause;
    }

    /** The exception's type and message, and its cause's when the message is empty. */
    private static String describe(Throwable cause) {
        String message = cause.getMessage();
        String text = cause.getClass().getSimpleName() + (message == null || message.isEmpty() ? "" : " " + message);
        if ((message == null || message.isEmpty()) && cause.getCause() != null) {
            text += " caused by " + cause.getCause();
        }
        return text;
    }
}

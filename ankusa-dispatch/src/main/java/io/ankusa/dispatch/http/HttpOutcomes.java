package io.ankusa.dispatch.http;

import io.ankusa.dispatch.SinkOutcome;
import java.io.IOException;
import java.net.ConnectException;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpHeaders;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/**
 * Maps what an HTTP exchange ended with to a {@link SinkOutcome}; the table is in
 * {@link HttpSink}'s class comment.
 */
final class HttpOutcomes {

    private final boolean retryClientErrors;
    private final Duration connectTimeout;
    private final Duration requestTimeout;

    HttpOutcomes(boolean retryClientErrors, Duration connectTimeout, Duration requestTimeout) {
        this.retryClientErrors = retryClientErrors;
        this.connectTimeout = connectTimeout;
        this.requestTimeout = requestTimeout;
    }

    /** The outcome of a response with {@code status} and {@code headers}, received at {@code now}. */
    SinkOutcome ofResponse(int status, HttpHeaders headers, Instant now) {
        if (status >= 200 && status <= 299) {
            return SinkOutcome.delivered();
        }
        String reason = "http " + status;
        if (status == 410) {
            return SinkOutcome.dead(reason + " gone: the endpoint asked not to be sent more");
        }
        boolean clientError = status >= 400 && status <= 499;
        boolean transientClientError = status == 408 || status == 429;
        if (clientError && !transientClientError && !retryClientErrors) {
            return SinkOutcome.dead(reason);
        }
        if (status >= 300 && status <= 399) {
            reason += " (redirects are not followed; location " + headers.firstValue("location").orElse("absent") + ")";
        }
        Optional<Duration> hint = headers.firstValue("retry-after").flatMap(value -> RetryAfterHeader.parse(value, now));
        if (hint.isPresent()) {
            return SinkOutcome.retryAfter(hint.get(), reason + " (retry-after " + hint.get() + ")");
        }
        return SinkOutcome.retry(reason);
    }

    /** The outcome of an exchange that failed before a response came. */
    SinkOutcome ofFailure(Throwable failure) {
        Throwable cause = unwrap(failure);
        if (cause instanceof HttpConnectTimeoutException) {
            return SinkOutcome.retry("connect timeout: no connection within " + connectTimeout);
        }
        if (cause instanceof HttpTimeoutException) {
            return SinkOutcome.retry("timeout: no response within " + requestTimeout);
        }
        if (cause instanceof ConnectException) {
            return SinkOutcome.retry("connect failed: " + describe(cause));
        }
        if (cause instanceof IOException) {
            return SinkOutcome.retry("i/o error: " + describe(cause));
        }
        return SinkOutcome.retry("unexpected failure: " + describe(cause));
    }

    private static Throwable unwrap(Throwable failure) {
        Throwable cause = failure;
        while ((cause instanceof CompletionException || cause instanceof ExecutionException)
                && cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause;
    }

    /** The exception's type and message, and its cause's when the message is empty (the JDK's ConnectException has none). */
    private static String describe(Throwable cause) {
        String message = cause.getMessage();
        String text = cause.getClass().getSimpleName() + (message == null || message.isEmpty() ? "" : " " + message);
        if ((message == null || message.isEmpty()) && cause.getCause() != null) {
            text += " caused by " + cause.getCause();
        }
        return text;
    }
}

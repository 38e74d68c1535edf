package io.ankusa.dispatch.http;

import io.ankusa.dispatch.Delivery;
import io.ankusa.dispatch.Sink;
import io.ankusa.dispatch.SinkOutcome;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.InstantSource;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * A {@link Sink} that POSTs each delivery's payload to one URL with {@code java.net.http}, signed
 * the Standard Webhooks way.
 *
 * <p><b>Request.</b> The hook's headers, in their order, except those HTTP or the client owns
 * ({@code Host}, {@code Content-Length}, {@code Connection}, {@code Expect}, {@code Upgrade},
 * {@code Keep-Alive}, {@code Proxy-Connection}, {@code TE}, {@code Trailer},
 * {@code Transfer-Encoding}) and the three {@code webhook-*} headers the sink writes itself;
 * {@code Content-Type} is the hook's when it has one, else the configured default. Then
 * {@code webhook-id} (the hook id), {@code webhook-timestamp} (unix seconds, from the sink's clock
 * when the request is built) and {@code webhook-signature}
 * ({@code v1,<base64 HMAC-SHA256(key, id.timestamp.payload)>}). HTTP/1.1, no redirects followed.
 *
 * <p><b>Outcome.</b> {@link #deliver(Delivery)} never throws nor fails its stage:
 * <table>
 *   <caption>How an exchange ends</caption>
 *   <tr><th>Exchange</th><th>Outcome</th></tr>
 *   <tr><td>2xx</td><td>delivered</td></tr>
 *   <tr><td>410 Gone</td><td>dead</td></tr>
 *   <tr><td>408, 429</td><td>retry</td></tr>
 *   <tr><td>other 4xx</td><td>dead, or retry with {@link Builder#retryClientErrors(boolean)}</td></tr>
 *   <tr><td>3xx, 5xx, anything else</td><td>retry</td></tr>
 *   <tr><td>connect or request timeout, refused or broken connection</td><td>retry</td></tr>
 *   <tr><td>a hook id that cannot be signed safely, a header value HTTP refuses</td><td>dead</td></tr>
 * </table>
 * A retry caused by a response carries its {@code Retry-After} (delay-seconds or HTTP-date) as
 * the hint. The outcome depends on the status line and headers only: the response body is drained
 * in the background and dropped.
 *
 * <p>A hook id is signed as it is, so it must be printable ASCII without spaces or full stops: a
 * full stop would let a receiver's check accept another split of {@code id.timestamp.payload}.
 */
public final class HttpSink implements Sink {

    /** Headers never copied from the hook: HTTP's hop-by-hop and framing headers, and the sink's own. */
    private static final Set<String> NOT_FORWARDED = Set.of(
            "host", "content-length", "connection", "expect", "upgrade", "keep-alive",
            "proxy-connection", "te", "trailer", "transfer-encoding",
            "webhook-id", "webhook-timestamp", "webhook-signature");

    private static final String CONTENT_TYPE = "content-type";
    private static final long DRAINED_BODY_LIMIT = 64 * 1024;

    private final URI endpoint;
    private final WebhookSigner signer;
    private final String contentType;
    private final Duration requestTimeout;
    private final InstantSource clock;
    private final HttpOutcomes outcomes;
    private final HttpClient client;
    private final HttpResponse.BodyHandler<Void> drain;

    private HttpSink(Builder builder) {
        this.endpoint = builder.endpoint;
        this.signer = new WebhookSigner(builder.secret);
        this.contentType = builder.contentType;
        this.requestTimeout = builder.requestTimeout;
        this.clock = builder.clock;
        this.outcomes = new HttpOutcomes(builder.retryClientErrors, builder.connectTimeout, builder.requestTimeout);
        this.client = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .followRedirects(HttpClient.Redirect.NEVER)
                .connectTimeout(builder.connectTimeout)
                .build();
        this.drain = ResponseDrain.handler(DRAINED_BODY_LIMIT, builder.requestTimeout);
    }

    /**
     * A builder for a sink posting to {@code endpoint} (an absolute {@code http} or {@code https}
     * URI) and signing with {@code secret}.
     */
    public static Builder builder(URI endpoint, WebhookSecret secret) {
        return new Builder(endpoint, secret);
    }

    @Override
    public CompletionStage<SinkOutcome> deliver(Delivery delivery) {
        try {
            String id = delivery.hookId();
            if (!signable(id)) {
                return CompletableFuture.completedStage(SinkOutcome.dead(
                        "unsignable hook id: printable ASCII without spaces or full stops is needed"));
            }
            HttpRequest request;
            try {
                request = request(delivery, id);
            } catch (IllegalArgumentException e) {
                return CompletableFuture.completedStage(SinkOutcome.dead("invalid request: " + e.getMessage()));
            }
            return client.sendAsync(request, drain).handle((response, failure) -> failure == null
                    ? outcomes.ofResponse(response.statusCode(), response.headers(), clock.instant())
                    : outcomes.ofFailure(failure));
        } catch (RuntimeException e) {
            return CompletableFuture.completedStage(SinkOutcome.retry("unexpected failure: " + e));
        }
    }

    private HttpRequest request(Delivery delivery, String id) {
        long timestamp = clock.instant().getEpochSecond();
        byte[] payload = delivery.payload();
        var builder = HttpRequest.newBuilder(endpoint)
                .timeout(requestTimeout)
                .POST(HttpRequest.BodyPublishers.ofByteArray(payload));
        String type = contentType;
        for (Map.Entry<String, String> header : delivery.headers().entrySet()) {
            String name = header.getKey().toLowerCase(Locale.ROOT);
            if (name.equals(CONTENT_TYPE)) {
                type = header.getValue();
            } else if (!NOT_FORWARDED.contains(name)) {
                builder.header(header.getKey(), header.getValue());
            }
        }
        return builder
                .header(CONTENT_TYPE, type)
                .header("webhook-id", id)
                .header("webhook-timestamp", Long.toString(timestamp))
                .header("webhook-signature", signer.sign(id, timestamp, payload))
                .build();
    }

    private static boolean signable(String id) {
        return id.chars().allMatch(c -> c > 0x20 && c < 0x7F && c != '.');
    }

    /** Names the endpoint only. */
    @Override
    public String toString() {
        return "HttpSink[" + endpoint + "]";
    }

    /**
     * Configures an {@link HttpSink}. Defaults: connect timeout 5 s, request timeout 15 s (the time
     * to the response headers), content type {@code application/json}, other 4xx dead, the
     * system clock.
     */
    public static final class Builder {

        private final URI endpoint;
        private final WebhookSecret secret;
        private Duration connectTimeout = Duration.ofSeconds(5);
        private Duration requestTimeout = Duration.ofSeconds(15);
        private String contentType = "application/json";
        private boolean retryClientErrors;
        private InstantSource clock = InstantSource.system();

        private Builder(URI endpoint, WebhookSecret secret) {
            Objects.requireNonNull(endpoint, "endpoint");
            this.secret = Objects.requireNonNull(secret, "secret");
            String scheme = endpoint.getScheme();
            if (!endpoint.isAbsolute() || endpoint.getHost() == null
                    || !("http".equalsIgnoreCase(scheme) || "https".equalsIgnoreCase(scheme))) {
                throw new IllegalArgumentException("endpoint must be an absolute http or https URI with a host: " + endpoint);
            }
            this.endpoint = endpoint;
        }

        /** How long to wait for a connection; positive. */
        public Builder connectTimeout(Duration timeout) {
            this.connectTimeout = requirePositive(timeout, "connectTimeout");
            return this;
        }

        /** How long to wait, once connected, for the response's status and headers; positive. */
        public Builder requestTimeout(Duration timeout) {
            this.requestTimeout = requirePositive(timeout, "requestTimeout");
            return this;
        }

        /** The {@code Content-Type} sent when the hook has none. */
        public Builder contentType(String type) {
            Objects.requireNonNull(type, "type");
            if (type.isBlank()) {
                throw new IllegalArgumentException("contentType must not be blank");
            }
            this.contentType = type;
            return this;
        }

        /** Whether a 4xx other than 408, 410 and 429 is retried ({@code true}) or dead ({@code false}, the default). */
        public Builder retryClientErrors(boolean retry) {
            this.retryClientErrors = retry;
            return this;
        }

        /** The clock for {@code webhook-timestamp} and for HTTP-date {@code Retry-After} values. */
        public Builder clock(InstantSource clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /** The sink, with its own {@link HttpClient}. */
        public HttpSink build() {
            return new HttpSink(this);
        }

        private static Duration requirePositive(Duration duration, String what) {
            Objects.requireNonNull(duration, what);
            if (duration.isNegative() || duration.isZero()) {
                throw new IllegalArgumentException(what + " must be positive: " + duration);
            }
            return duration;
        }
    }
}

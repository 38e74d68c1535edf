package io.ankusa.dispatch.http;

import io.ankusa.api.AttemptErrorClass;
import io.ankusa.dispatch.sink.Delivery;
import io.ankusa.dispatch.sink.Sink;
import io.ankusa.dispatch.sink.SinkOutcome;
import java.net.URI;
import java.time.Duration;
import java.time.InstantSource;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapSetter;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.nio.AsyncRequestProducer;
import org.apache.hc.core5.http.nio.entity.AsyncEntityProducers;
import org.apache.hc.core5.http.nio.support.AsyncRequestBuilder;

/**
 * A {@link Sink} that POSTs each delivery's payload to its tenant's endpoint, signed the Standard
 * Webhooks way, through a shared {@link WebhookClient} (for an endpoint with a
 * {@linkplain Endpoint#withClientCertificate client certificate}, through that client's pool for it).
 *
 * <p><b>Endpoint.</b> An {@link EndpointResolver} names it per (tenant, sink); answers are cached
 * until {@link #invalidate(String)} or {@link #invalidateAll()};
 * {@link #builder(URI, WebhookSecret, WebhookSecret...)} is the one-URL case. No endpoint: dead, reason
 * {@value #UNKNOWN_ENDPOINT}. A disabled endpoint: {@link SinkOutcome.EndpointDisabled}, nothing sent. A URL
 * or address the {@link AddressGuard} refuses: dead, reason {@value AddressGuard#SSRF_REFUSED}, before any connection.
 *
 * <p><b>Request.</b> The hook's headers, in their order, then the endpoint's extra headers, except
 * those a stored hook must not set: {@code webhook-*} and {@code svix-*} (signature headers a
 * receiver's library would read), hop-by-hop ({@code Connection}, {@code Keep-Alive},
 * {@code Proxy-*}, {@code TE}, {@code Trailer}, {@code Transfer-Encoding}, {@code Upgrade}),
 * framing ({@code Content-Length}, {@code Host}, {@code Expect}) and {@code User-Agent};
 * {@code Content-Type} is the last one given, else the configured default. Then {@code webhook-id}
 * (the hook id), {@code webhook-timestamp} (unix seconds, from the sink's clock when the request
 * is built), {@code webhook-signature} (one {@code v1,} signature per active secret, then one
 * {@code v1a,} Ed25519 signature per active signing key, space-separated) and
 * {@code User-Agent: Ankusa/<version>}. HTTP/1.1, no redirects followed.
 *
 * <p><b>Trace headers.</b> For an endpoint with {@link Endpoint#traceparent()} on, or every endpoint
 * with {@link Builder#traceparent(boolean)}, the W3C {@code traceparent} (and {@code tracestate} when
 * not empty) of the span current while {@link #deliver(Delivery)} runs: the pipeline makes the
 * attempt's span current when it traces attempts, else the trace context stored with the hook. The
 * hook's and the endpoint's own {@code traceparent} and {@code tracestate} are then not sent. Off by
 * default: the headers tell the receiver the ids of the sender's traces.
 *
 * <p><b>Outcome.</b> {@link #deliver(Delivery)} never throws nor fails its stage:
 * <table>
 *   <caption>How an exchange ends</caption>
 *   <tr><th>Exchange</th><th>Outcome</th></tr>
 *   <tr><td>2xx</td><td>delivered</td></tr>
 *   <tr><td>410 Gone</td><td>{@linkplain SinkOutcome.EndpointGone endpoint gone}</td></tr>
 *   <tr><td>a status in {@link Builder#deadStatuses(Set)} (none by default)</td><td>dead</td></tr>
 *   <tr><td>any other status: 3xx, 4xx, 5xx</td><td>retry</td></tr>
 *   <tr><td>connect, pool or response timeout, refused or broken connection, DNS failure</td><td>retry</td></tr>
 *   <tr><td>an address the guard refuses</td><td>dead</td></tr>
 *   <tr><td>a hook id that cannot be signed safely, a header HTTP refuses</td><td>dead</td></tr>
 * </table>
 * A retry caused by a response carries its {@code Retry-After} (delay-seconds or HTTP-date) as
 * the hint. The outcome depends on the status line and headers only: the body is dropped.
 *
 * <p>A hook id is signed as it is, so it must be printable ASCII without spaces or full stops: a
 * full stop would let a receiver's check accept another split of {@code id.timestamp.payload}.
 */
public final class HttpSink implements Sink, AutoCloseable {

    /** Reason prefix of a delivery whose tenant and sink have no endpoint. */
    public static final String UNKNOWN_ENDPOINT = "unknown_endpoint";

    /** Reason prefix of a retry caused by an {@link EndpointResolver} that threw. */
    public static final String ENDPOINT_LOOKUP_FAILED = "endpoint_lookup_failed";

    /** The {@code User-Agent} every request carries: {@code Ankusa/} and this module's version. */
    public static final String USER_AGENT = "Ankusa/" + ModuleVersion.of(HttpSink.class);

    /** Header name prefixes never copied from a hook or an endpoint's extra headers. */
    private static final String[] NOT_FORWARDED_PREFIXES = {"webhook-", "svix-", "proxy-"};

    /** Header names never copied from a hook or an endpoint's extra headers. */
    private static final Set<String> NOT_FORWARDED = Set.of(
            "host", "content-length", "expect", "connection", "keep-alive", "te", "trailer",
            "transfer-encoding", "upgrade", "user-agent");

    private static final String CONTENT_TYPE = "content-type";
    private static final String TRACEPARENT = "traceparent";
    private static final String TRACESTATE = "tracestate";
    private static final long DRAINED_BODY_LIMIT = 64 * 1024;

    private final EndpointCache endpoints;
    private final String description;
    private final WebhookClient client;
    private final boolean ownsClient;
    private final String contentType;
    private final Duration requestTimeout;
    private final InstantSource clock;
    private final HttpOutcomes outcomes;
    private final boolean traceparent;

    private HttpSink(Builder builder, WebhookClient client, boolean ownsClient) {
        this.endpoints = new EndpointCache(builder.resolver, builder.endpointCacheSize);
        this.description = builder.description;
        this.client = client;
        this.ownsClient = ownsClient;
        this.contentType = builder.contentType;
        this.requestTimeout = builder.requestTimeout;
        this.clock = builder.clock;
        this.outcomes = new HttpOutcomes(builder.deadStatuses, client.connectTimeout(), builder.requestTimeout);
        this.traceparent = builder.traceparent;
    }

    /**
     * A builder for a sink that asks {@code resolver} for each tenant's endpoint.
     *
     * @param resolver where each (tenant, sink)'s endpoint comes from; its answers are cached
     * @return a builder with the default timeouts and client
     */
    public static Builder builder(EndpointResolver resolver) {
        return new Builder(Objects.requireNonNull(resolver, "resolver"), "HttpSink[per-tenant endpoints]");
    }

    /**
     * A builder for a sink posting every delivery to {@code endpoint} (an absolute {@code http} or
     * {@code https} URI), signed with {@code secret} (and {@code more} while one rotates); a sink
     * without a secret does not compile.
     *
     * @param endpoint where every delivery is posted
     * @param secret   the secret each delivery is signed with
     * @param more     further secrets signing alongside it
     * @return a builder with the default timeouts and client
     */
    public static Builder builder(URI endpoint, WebhookSecret secret, WebhookSecret... more) {
        Endpoint fixed = Endpoint.of(endpoint, secret, more);
        return new Builder(EndpointResolver.fixed(fixed), "HttpSink[" + endpoint + "]");
    }

    /**
     * Forgets the cached endpoints of {@code tenantId}: the next delivery asks the resolver again.
     *
     * @param tenantId the tenant whose endpoints changed
     */
    public void invalidate(String tenantId) {
        endpoints.invalidate(Objects.requireNonNull(tenantId, "tenantId"));
    }

    /** Forgets every cached endpoint. */
    public void invalidateAll() {
        endpoints.invalidateAll();
    }

    @Override
    public CompletionStage<SinkOutcome> deliver(Delivery delivery) {
        try {
            return send(delivery);
        } catch (RuntimeException e) {
            return CompletableFuture.completedStage(SinkOutcome.retry("unexpected failure: " + e,
                    AttemptErrorClass.OTHER));
        }
    }

    private CompletionStage<SinkOutcome> send(Delivery delivery) {
        String id = delivery.hookId();
        if (!signable(id)) {
            return done(SinkOutcome.dead("unsignable hook id: printable ASCII without spaces or full stops is needed",
                    AttemptErrorClass.INVALID_REQUEST));
        }
        Optional<Endpoint> found;
        try {
            found = endpoints.endpoint(delivery.tenantId(), delivery.sink());
        } catch (RuntimeException e) {
            return done(SinkOutcome.retry(ENDPOINT_LOOKUP_FAILED + ": " + e, AttemptErrorClass.ENDPOINT_LOOKUP));
        }
        if (found.isEmpty()) {
            return done(SinkOutcome.dead(UNKNOWN_ENDPOINT + ": no endpoint for tenant " + delivery.tenantId()
                    + ", sink " + delivery.sink(), AttemptErrorClass.ENDPOINT_UNKNOWN));
        }
        Endpoint endpoint = found.get();
        if (!endpoint.enabled()) {
            return done(SinkOutcome.endpointDisabled("the endpoint of tenant " + delivery.tenantId() + ", sink "
                    + delivery.sink() + " is disabled"));
        }
        Optional<String> refused = client.guard().refusal(endpoint.url());
        if (refused.isPresent()) {
            return done(SinkOutcome.dead(refused.get(), AttemptErrorClass.SSRF_REFUSED));
        }
        if (endpoint.url().getHost() == null) {
            return done(SinkOutcome.dead("invalid request: the endpoint's host is not understood: " + endpoint.url(),
                    AttemptErrorClass.INVALID_REQUEST));
        }
        AsyncRequestProducer request;
        try {
            request = request(delivery, endpoint, id);
        } catch (IllegalArgumentException e) {
            return done(SinkOutcome.dead("invalid request: " + e.getMessage(), AttemptErrorClass.INVALID_REQUEST));
        }
        return client.send(endpoint.clientCertificate(), request, new HeadOnlyConsumer(DRAINED_BODY_LIMIT),
                        requestTimeout)
                .handle((head, failure) -> failure == null
                        ? outcomes.ofResponse(head, clock.instant())
                        : outcomes.ofFailure(failure));
    }

    private AsyncRequestProducer request(Delivery delivery, Endpoint endpoint, String id) {
        long timestamp = clock.instant().getEpochSecond();
        byte[] payload = delivery.payload();
        AsyncRequestBuilder builder = AsyncRequestBuilder.post(endpoint.url());
        String type = contentType;
        boolean traced = traceparent || endpoint.traceparent();
        for (Map<String, String> headers : List.of(delivery.headers(), endpoint.headers())) {
            for (Map.Entry<String, String> header : headers.entrySet()) {
                String name = header.getKey().toLowerCase(Locale.ROOT);
                HeaderSyntax.requireValid(header.getKey(), header.getValue());
                if (name.equals(CONTENT_TYPE)) {
                    type = header.getValue();
                } else if (forwarded(name) && !(traced && (name.equals(TRACEPARENT) || name.equals(TRACESTATE)))) {
                    builder.addHeader(header.getKey(), header.getValue());
                }
            }
        }
        if (traced) {
            addTraceHeaders(builder);
        }
        return builder
                // The entity's own type is not sent: the Content-Type header below is, verbatim.
                .setEntity(AsyncEntityProducers.create(payload, ContentType.APPLICATION_OCTET_STREAM))
                .addHeader("Content-Type", type)
                .addHeader("webhook-id", id)
                .addHeader("webhook-timestamp", Long.toString(timestamp))
                .addHeader("webhook-signature", WebhookSigner.sign(endpoint.secrets(), endpoint.signingKeys(), id,
                        timestamp, payload))
                .addHeader("User-Agent", USER_AGENT)
                .build();
    }

    /** The current span's context as {@code traceparent} and {@code tracestate}; nothing without a valid one. */
    private static void addTraceHeaders(AsyncRequestBuilder builder) {
        Context current = Context.current();
        SpanContext span = Span.fromContext(current).getSpanContext();
        if (span.isValid()) {
            W3CTraceContextPropagator.getInstance().inject(current, builder, HeaderSetter.INSTANCE);
        }
    }

    private enum HeaderSetter implements TextMapSetter<AsyncRequestBuilder> {
        INSTANCE;

        @Override
        public void set(AsyncRequestBuilder carrier, String key, String value) {
            if (carrier != null) {
                carrier.addHeader(key, value);
            }
        }
    }

    private static boolean forwarded(String lowerCaseName) {
        if (NOT_FORWARDED.contains(lowerCaseName)) {
            return false;
        }
        for (String prefix : NOT_FORWARDED_PREFIXES) {
            if (lowerCaseName.startsWith(prefix)) {
                return false;
            }
        }
        return true;
    }

    private static boolean signable(String id) {
        return id.chars().allMatch(c -> c > 0x20 && c < 0x7F && c != '.');
    }

    private static CompletionStage<SinkOutcome> done(SinkOutcome outcome) {
        return CompletableFuture.completedStage(outcome);
    }

    /**
     * Its client's per-host connection limit ({@link WebhookClient#maxConnectionsPerHost()}, 16 by
     * default): more attempts to one endpoint at once would wait in the pool with their deadline running.
     *
     * @return the client's per-host connection limit
     */
    @Override
    public int endpointConcurrency() {
        return client.maxConnectionsPerHost();
    }

    /** Closes the sink's own client, if it built one; a shared {@link WebhookClient} stays open. */
    @Override
    public void close() {
        if (ownsClient) {
            client.close();
        }
    }

    /** Names the endpoint (or says the endpoints are per tenant) only. */
    @Override
    public String toString() {
        return description;
    }

    static Duration requirePositive(Duration duration, String what) {
        Objects.requireNonNull(duration, what);
        if (duration.isNegative() || duration.isZero()) {
            throw new IllegalArgumentException(what + " must be positive: " + duration);
        }
        return duration;
    }

    /**
     * Configures an {@link HttpSink}. Defaults: its own {@link WebhookClient} with
     * {@link AddressGuard#publicOnly()} and a 5 s connect timeout (or a shared one, {@link #client}),
     * request timeout 15 s (the time to the response headers), content type
     * {@code application/json}, no status dead at once, the system clock, 100 000 cached endpoints.
     */
    public static final class Builder {

        private final EndpointResolver resolver;
        private final String description;
        private WebhookClient client;
        private AddressGuard guard;
        private Duration connectTimeout;
        private Duration requestTimeout = Duration.ofSeconds(15);
        private String contentType = "application/json";
        private Set<Integer> deadStatuses = Set.of();
        private InstantSource clock = InstantSource.system();
        private int endpointCacheSize = 100_000;
        private boolean traceparent;

        private Builder(EndpointResolver resolver, String description) {
            this.resolver = resolver;
            this.description = description;
        }

        /**
         * Sends through {@code shared} (its guard, connect timeout and connection limits); the sink
         * does not close it. Without one the sink builds and closes its own.
         *
         * @param shared the client to send through, owned by the caller
         * @return this builder
         */
        public Builder client(WebhookClient shared) {
            this.client = Objects.requireNonNull(shared, "shared");
            return this;
        }

        /**
         * The guard of the sink's own client (not with {@link #client}); default {@link AddressGuard#publicOnly()}.
         *
         * @param addressGuard which addresses the sink's own client may connect to
         * @return this builder
         */
        public Builder guard(AddressGuard addressGuard) {
            this.guard = Objects.requireNonNull(addressGuard, "addressGuard");
            return this;
        }

        /**
         * How long the sink's own client waits for a connection (not with {@link #client}); positive.
         *
         * @param timeout how long a connection may take; positive
         * @return this builder
         */
        public Builder connectTimeout(Duration timeout) {
            this.connectTimeout = requirePositive(timeout, "connectTimeout");
            return this;
        }

        /**
         * How long to wait, once connected, for the response's status and headers; positive.
         *
         * @param timeout how long the response's head may take; positive
         * @return this builder
         */
        public Builder requestTimeout(Duration timeout) {
            this.requestTimeout = requirePositive(timeout, "requestTimeout");
            return this;
        }

        /**
         * The {@code Content-Type} sent when the hook has none.
         *
         * @param type the media type, for example {@code application/json}
         * @return this builder
         */
        public Builder contentType(String type) {
            Objects.requireNonNull(type, "type");
            if (type.isBlank()) {
                throw new IllegalArgumentException("contentType must not be blank");
            }
            this.contentType = type;
            return this;
        }

        /**
         * Statuses that dead-letter a delivery at once instead of a retry (none by default: every
         * non-2xx is retried, as the Standard Webhooks specification asks). 2xx and 410 cannot be listed.
         *
         * @param statuses HTTP statuses (not 2xx, not 410) after which no retry is made
         * @return this builder
         */
        public Builder deadStatuses(Set<Integer> statuses) {
            Set<Integer> copy = Set.copyOf(statuses);
            for (int status : copy) {
                if (status < 100 || status > 999 || (status >= 200 && status <= 299) || status == 410) {
                    throw new IllegalArgumentException("not a status that can be dead at once: " + status);
                }
            }
            this.deadStatuses = copy;
            return this;
        }

        /**
         * The clock for {@code webhook-timestamp} and for HTTP-date {@code Retry-After} values.
         *
         * @param source the clock the sink reads
         * @return this builder
         */
        public Builder clock(InstantSource source) {
            this.clock = Objects.requireNonNull(source, "source");
            return this;
        }

        /**
         * How many (tenant, sink) answers the endpoint cache keeps before starting again; at least 1.
         *
         * @param entries the most cached endpoint answers, at least 1
         * @return this builder
         */
        public Builder endpointCacheSize(int entries) {
            if (entries < 1) {
                throw new IllegalArgumentException("endpointCacheSize must be at least 1: " + entries);
            }
            this.endpointCacheSize = entries;
            return this;
        }

        /**
         * Sends the W3C {@code traceparent} (and a non-empty {@code tracestate}) to every endpoint,
         * not only to those with {@link Endpoint#traceparent()} on; off by default, because the
         * headers tell the receiver the ids of the sender's traces.
         *
         * @param on {@code true} to send the trace headers on every request
         * @return this builder
         */
        public Builder traceparent(boolean on) {
            this.traceparent = on;
            return this;
        }

        /**
         * The sink.
         *
         * @return the sink; close it to close the client it built
         * @throws IllegalStateException when a shared client is combined with a guard or connect
         *                               timeout, which belong to the client
         */
        public HttpSink build() {
            if (client != null) {
                if (guard != null || connectTimeout != null) {
                    throw new IllegalStateException("guard and connectTimeout belong to the shared WebhookClient");
                }
                return new HttpSink(this, client, false);
            }
            WebhookClient.Builder own = WebhookClient.builder();
            if (guard != null) {
                own.guard(guard);
            }
            if (connectTimeout != null) {
                own.connectTimeout(connectTimeout);
            }
            return new HttpSink(this, own.build(), true);
        }
    }
}

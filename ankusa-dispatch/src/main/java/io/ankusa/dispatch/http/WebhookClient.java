package io.ankusa.dispatch.http;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import javax.net.ssl.SSLContext;
import org.apache.hc.client5.http.DnsResolver;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.config.TlsConfig;
import org.apache.hc.client5.http.impl.async.CloseableHttpAsyncClient;
import org.apache.hc.client5.http.impl.async.HttpAsyncClients;
import org.apache.hc.client5.http.impl.nio.PoolingAsyncClientConnectionManager;
import org.apache.hc.client5.http.impl.nio.PoolingAsyncClientConnectionManagerBuilder;
import org.apache.hc.client5.http.ssl.ClientTlsStrategyBuilder;
import org.apache.hc.core5.concurrent.FutureCallback;
import org.apache.hc.core5.http.nio.AsyncRequestProducer;
import org.apache.hc.core5.http2.HttpVersionPolicy;
import org.apache.hc.core5.io.CloseMode;
import org.apache.hc.core5.util.Timeout;

/**
 * The HTTP client every endpoint of a deployment shares: one connection pool with a limit per host
 * and in all, the {@link AddressGuard} in its DNS resolver, HTTP/1.1, no redirects, no cookies, no
 * automatic retries, no proxy. Built on Apache HttpClient 5 (async), whose resolver hook lets the
 * guard check the addresses the client then connects to.
 *
 * <p><b>Client certificates.</b> An endpoint with a {@linkplain Endpoint#withClientCertificate
 * client certificate} is sent through a pool of its own, one per distinct {@link SSLContext}
 * (compared by identity), created at its first request and closed with this client: the shared
 * pool reuses a connection by scheme, host and port alone, so a connection opened with one
 * endpoint's certificate must never carry another endpoint's request. That pool's TLS handshakes
 * use the context for both sides (its key managers present the certificate, its trust managers
 * decide which servers are trusted); its guard, timeouts and connection limits are this client's,
 * counted per pool. Each distinct context costs one pool, its connections and its I/O threads, so
 * build one context per certificate and reuse it rather than one per request.
 *
 * <p>Pass one to {@link HttpSink.Builder#client(WebhookClient)} to share it between sinks;
 * close it after the pipelines that use it. Thread-safe.
 */
public final class WebhookClient implements AutoCloseable {

    private final AddressGuard guard;
    private final Duration connectTimeout;
    private final Duration poolTimeout;
    private final int maxConnectionsPerHost;
    private final int maxConnections;
    private final CloseableHttpAsyncClient client;
    /** One client per distinct client-certificate context; identity keys, since SSLContext keeps Object's equals. */
    private final Map<SSLContext, CloseableHttpAsyncClient> certificateClients = new ConcurrentHashMap<>();
    /** Guards starting a certificate pool against {@link #close()}, so that none starts after it. */
    private final Object poolsLock = new Object();
    private boolean closed;

    private WebhookClient(Builder builder) {
        this.guard = builder.guard;
        this.connectTimeout = builder.connectTimeout;
        this.poolTimeout = builder.poolTimeout;
        this.maxConnectionsPerHost = builder.maxConnectionsPerHost;
        this.maxConnections = builder.maxConnections;
        this.client = start(null);
    }

    /** A started client with this client's settings, with {@code tls} for its handshakes, or the default without. */
    private CloseableHttpAsyncClient start(SSLContext tls) {
        PoolingAsyncClientConnectionManagerBuilder pool = PoolingAsyncClientConnectionManagerBuilder.create()
                .setDnsResolver(new GuardedResolver(guard))
                .setMaxConnPerRoute(maxConnectionsPerHost)
                .setMaxConnTotal(maxConnections)
                .setDefaultConnectionConfig(ConnectionConfig.custom()
                        .setConnectTimeout(Timeout.of(connectTimeout))
                        .build())
                .setDefaultTlsConfig(TlsConfig.custom().setVersionPolicy(HttpVersionPolicy.FORCE_HTTP_1).build());
        if (tls != null) {
            pool.setTlsStrategy(ClientTlsStrategyBuilder.create().setSslContext(tls).buildAsync());
        }
        PoolingAsyncClientConnectionManager connections = pool.build();
        CloseableHttpAsyncClient started = HttpAsyncClients.custom()
                .setConnectionManager(connections)
                .setDefaultRequestConfig(RequestConfig.custom().setRedirectsEnabled(false).build())
                .disableRedirectHandling()
                .disableAutomaticRetries()
                .disableCookieManagement()
                .disableAuthCaching()
                .disableConnectionState()
                .build();
        started.start();
        return started;
    }

    /** The client for {@code certificate}'s pool, started at its first use; the shared one for {@code null}. */
    private CloseableHttpAsyncClient clientFor(SSLContext certificate) {
        if (certificate == null) {
            return client;
        }
        CloseableHttpAsyncClient existing = certificateClients.get(certificate);
        if (existing != null) {
            return existing;
        }
        synchronized (poolsLock) {
            if (closed) {
                // Closed: the shared client, closed too, fails the request as it fails any other.
                return client;
            }
            return certificateClients.computeIfAbsent(certificate, this::start);
        }
    }

    /**
     * A builder with the defaults.
     *
     * @return a builder with the default guard, timeouts and connection limits
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * The guard every connection passes.
     *
     * @return the address guard of this client
     */
    public AddressGuard guard() {
        return guard;
    }

    /**
     * The most connections the pool opens to one host ({@link Builder#maxConnectionsPerHost}).
     *
     * @return the per-host connection limit
     */
    public int maxConnectionsPerHost() {
        return maxConnectionsPerHost;
    }

    Duration connectTimeout() {
        return connectTimeout;
    }

    /**
     * Sends {@code request} through the pool of {@code certificate} (the shared pool for {@code null});
     * the future completes when {@code answer} has the response's head.
     */
    CompletableFuture<ResponseHead> send(SSLContext certificate, AsyncRequestProducer request, HeadOnlyConsumer answer,
            Duration responseTimeout) {
        CompletableFuture<ResponseHead> result = new CompletableFuture<>();
        var context = org.apache.hc.client5.http.protocol.HttpClientContext.create();
        context.setRequestConfig(RequestConfig.custom()
                .setRedirectsEnabled(false)
                .setConnectionRequestTimeout(Timeout.of(poolTimeout))
                .setResponseTimeout(Timeout.of(responseTimeout))
                .build());
        clientFor(certificate).execute(request, answer, null, context, new Completion(result));
        return result;
    }

    /** Hands the client's outcome of one request to its future. */
    private static final class Completion implements FutureCallback<ResponseHead> {
        private final CompletableFuture<ResponseHead> result;

        Completion(CompletableFuture<ResponseHead> result) {
            this.result = result;
        }

        @Override
        public void completed(ResponseHead head) {
            result.complete(head);
        }

        @Override
        public void failed(Exception failure) {
            result.completeExceptionally(failure);
        }

        @Override
        public void cancelled() {
            result.cancel(false);
        }
    }

    /** How many client-certificate pools have been created, for tests. */
    int certificatePools() {
        return certificateClients.size();
    }

    /** Closes the shared pool and every client-certificate pool; requests under way fail. */
    @Override
    public void close() {
        List<CloseableHttpAsyncClient> pools;
        synchronized (poolsLock) {
            closed = true;
            pools = new ArrayList<>(certificateClients.values());
        }
        client.close(CloseMode.GRACEFUL);
        for (CloseableHttpAsyncClient pool : pools) {
            pool.close(CloseMode.GRACEFUL);
        }
    }

    @Override
    public String toString() {
        return "WebhookClient[" + guard + ", maxConnectionsPerHost=" + maxConnectionsPerHost + "]";
    }

    /** The pool's resolver: the guard, so that the addresses connected to are the addresses checked. */
    private static final class GuardedResolver implements DnsResolver {

        private final AddressGuard guard;

        GuardedResolver(AddressGuard guard) {
            this.guard = guard;
        }

        @Override
        public InetAddress[] resolve(String host) throws UnknownHostException {
            return guard.resolve(host);
        }

        @Override
        public String resolveCanonicalHostname(String host) throws UnknownHostException {
            // Only used for Kerberos/SPNEGO, which this client never does; no second lookup.
            return host;
        }
    }

    /**
     * Configures a {@link WebhookClient}. Defaults: {@link AddressGuard#publicOnly()}, connect
     * timeout 5 s, 16 connections per host, 512 in all, 30 s to wait for a pooled connection.
     */
    public static final class Builder {

        private AddressGuard guard = AddressGuard.publicOnly();
        private Duration connectTimeout = Duration.ofSeconds(5);
        private Duration poolTimeout = Duration.ofSeconds(30);
        private int maxConnectionsPerHost = 16;
        private int maxConnections = 512;

        private Builder() {
        }

        /**
         * Which addresses may be connected to; default {@link AddressGuard#publicOnly()}.
         *
         * @param addressGuard the addresses this client may connect to
         * @return this builder
         */
        public Builder guard(AddressGuard addressGuard) {
            this.guard = Objects.requireNonNull(addressGuard, "addressGuard");
            return this;
        }

        /**
         * How long to wait for a connection; positive.
         *
         * @param timeout how long a connection may take; positive
         * @return this builder
         */
        public Builder connectTimeout(Duration timeout) {
            this.connectTimeout = HttpSink.requirePositive(timeout, "connectTimeout");
            return this;
        }

        /**
         * How long a request waits for a free pooled connection to its host; positive.
         *
         * @param timeout how long a request may wait for a pooled connection; positive
         * @return this builder
         */
        public Builder poolTimeout(Duration timeout) {
            this.poolTimeout = HttpSink.requirePositive(timeout, "poolTimeout");
            return this;
        }

        /**
         * Open connections to one host (scheme, host, port) at most; at least 1.
         *
         * @param connections the most open connections to one host, at least 1
         * @return this builder
         */
        public Builder maxConnectionsPerHost(int connections) {
            this.maxConnectionsPerHost = requireAtLeastOne(connections, "maxConnectionsPerHost");
            return this;
        }

        /**
         * Open connections in all at most; at least 1.
         *
         * @param connections the most open connections in all, at least 1
         * @return this builder
         */
        public Builder maxConnections(int connections) {
            this.maxConnections = requireAtLeastOne(connections, "maxConnections");
            return this;
        }

        /**
         * The client, started; close it when done.
         *
         * @return a started client with these settings
         */
        public WebhookClient build() {
            return new WebhookClient(this);
        }

        private static int requireAtLeastOne(int value, String what) {
            if (value < 1) {
                throw new IllegalArgumentException(what + " must be at least 1: " + value);
            }
            return value;
        }
    }
}

package io.ankusa.dispatch.http;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import org.apache.hc.client5.http.DnsResolver;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.config.TlsConfig;
import org.apache.hc.client5.http.impl.async.CloseableHttpAsyncClient;
import org.apache.hc.client5.http.impl.async.HttpAsyncClients;
import org.apache.hc.client5.http.impl.nio.PoolingAsyncClientConnectionManager;
import org.apache.hc.client5.http.impl.nio.PoolingAsyncClientConnectionManagerBuilder;
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
 * <p>Pass one to {@link HttpSink.Builder#client(WebhookClient)} to share it between sinks;
 * close it after the pipelines that use it. Thread-safe.
 */
public final class WebhookClient implements AutoCloseable {

    private final AddressGuard guard;
    private final Duration connectTimeout;
    private final Duration poolTimeout;
    private final int maxConnectionsPerHost;
    private final CloseableHttpAsyncClient client;

    private WebhookClient(Builder builder) {
        this.guard = builder.guard;
        this.connectTimeout = builder.connectTimeout;
        this.poolTimeout = builder.poolTimeout;
        this.maxConnectionsPerHost = builder.maxConnectionsPerHost;
        PoolingAsyncClientConnectionManager connections = PoolingAsyncClientConnectionManagerBuilder.create()
                .setDnsResolver(new GuardedResolver(guard))
                .setMaxConnPerRoute(builder.maxConnectionsPerHost)
                .setMaxConnTotal(builder.maxConnections)
                .setDefaultConnectionConfig(ConnectionConfig.custom()
                        .setConnectTimeout(Timeout.of(builder.connectTimeout))
                        .build())
                .setDefaultTlsConfig(TlsConfig.custom().setVersionPolicy(HttpVersionPolicy.FORCE_HTTP_1).build())
                .build();
        this.client = HttpAsyncClients.custom()
                .setConnectionManager(connections)
                .setDefaultRequestConfig(RequestConfig.custom().setRedirectsEnabled(false).build())
                .disableRedirectHandling()
                .disableAutomaticRetries()
                .disableCookieManagement()
                .disableAuthCaching()
                .disableConnectionState()
                .build();
        client.start();
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

    /** Sends {@code request}; the future completes when {@code answer} has the response's head. */
    CompletableFuture<ResponseHead> send(AsyncRequestProducer request, HeadOnlyConsumer answer,
            Duration responseTimeout) {
        CompletableFuture<ResponseHead> result = new CompletableFuture<>();
        var context = org.apache.hc.client5.http.protocol.HttpClientContext.create();
        context.setRequestConfig(RequestConfig.custom()
                .setRedirectsEnabled(false)
                .setConnectionRequestTimeout(Timeout.of(poolTimeout))
                .setResponseTimeout(Timeout.of(responseTimeout))
                .build());
        client.execute(request, answer, null, context, new Completion(result));
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

    /** Closes the pool; requests under way fail. */
    @Override
    public void close() {
        client.close(CloseMode.GRACEFUL);
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

package io.ankusa.admin;

import io.ankusa.api.EndpointRegistry;
import io.ankusa.dispatch.Pipeline;
import io.ankusa.dispatch.Replayer;
import io.ankusa.queue.Queue;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Objects;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.http.UriCompliance;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * The admin API on a port of its own: an embedded Jetty 12.1 serving {@link AdminServlet} at
 * {@code /}, so the routes answer under {@code http://host:port/v1/...}. Callers authenticate with
 * the access policy's bearer tokens ({@link AccessPolicy#tokens}); with
 * {@link Builder#hookIngest(HookIngestServlet)} it also serves the ingest edge at {@code /v1/hooks}.
 * It binds {@code 127.0.0.1} unless told otherwise, and refuses an address that is not loopback unless
 * {@link Builder#allowNonLoopback(boolean)} says so ({@link NonLoopbackBindException}). Everything it
 * answers is JSON, Jetty's own refusals included. Needs {@code org.eclipse.jetty.ee10:jetty-ee10-servlet}
 * at run time (an optional dependency of this module: a host that only mounts the servlet leaves it out).
 */
public final class AdminServer implements AutoCloseable {

    /** How many threads serve requests at most: the API is for operators, not for traffic. */
    static final int MAX_THREADS = 16;

    /** Where {@link Builder#hookIngest(HookIngestServlet)} serves the ingest edge. */
    static final String HOOK_INGEST_PATH = "/v1/hooks";

    private final Server server;
    private final ServerConnector connector;
    private final AdminServlet servlet;

    private AdminServer(Builder builder, AdminServlet servlet) {
        this.servlet = servlet;
        QueuedThreadPool threads = new QueuedThreadPool(MAX_THREADS, 2);
        threads.setName("ankusa-admin");
        threads.setDaemon(true);
        server = new Server(threads);
        HttpConfiguration http = new HttpConfiguration();
        http.setSendServerVersion(false);
        http.setSendXPoweredBy(false);
        // Tenant ids may hold '/', '%' and '.', sent percent-encoded; the API decodes each segment itself.
        http.setUriCompliance(UriCompliance.DEFAULT.with("ankusa-admin",
                UriCompliance.AMBIGUOUS_VIOLATIONS.toArray(new UriCompliance.Violation[0])));
        // One acceptor and one selector, whatever the core count, so the small pool always suffices.
        connector = new ServerConnector(server, 1, 1, new HttpConnectionFactory(http));
        connector.setHost(builder.host);
        connector.setPort(builder.port);
        server.addConnector(connector);
        ServletContextHandler context = new ServletContextHandler("/", false, false);
        context.getServletHandler().setDecodeAmbiguousURIs(true);
        context.addServlet(new ServletHolder("ankusa-admin", servlet), "/*");
        if (builder.hookIngest != null) {
            // An exact mapping: it wins over the admin servlet's "/*" for this one path.
            context.addServlet(new ServletHolder("ankusa-hook-ingest", builder.hookIngest), HOOK_INGEST_PATH);
        }
        context.setErrorHandler(new JsonErrorHandler());
        server.setErrorHandler(new JsonErrorHandler());
        server.setHandler(context);
    }

    /**
     * A builder of the server over {@code queue}.
     *
     * @param queue the node's queue
     * @return the builder
     */
    public static Builder builder(Queue queue) {
        return new Builder(queue);
    }

    /**
     * Binds the port and starts serving.
     *
     * @return this server
     * @throws UncheckedIOException when the port cannot be bound
     */
    public AdminServer start() {
        try {
            server.start();
        } catch (IOException e) {
            close();
            throw new UncheckedIOException("the admin server could not start", e);
        } catch (Exception e) {
            close();
            throw new IllegalStateException("the admin server could not start", e);
        }
        return this;
    }

    /**
     * The port it listens on (the one chosen when the builder said 0).
     *
     * @return the port, or -1 before {@link #start()}
     */
    public int port() {
        return connector.getLocalPort();
    }

    /** Stops serving and releases the port. Idempotent. */
    @Override
    public void close() {
        try {
            server.stop();
        } catch (Exception e) {
            throw new IllegalStateException("the admin server did not stop cleanly", e);
        } finally {
            // Jetty destroys only a servlet it initialised; its threads stop either way (destroy is idempotent).
            servlet.destroy();
        }
    }

    /** Builds an {@link AdminServer}; the queue and the access policy are required. */
    public static final class Builder {

        private final AdminServlet.Builder servlet;
        private String host = "127.0.0.1";
        private int port;
        private boolean allowNonLoopback;
        private HookIngestServlet hookIngest;

        private Builder(Queue queue) {
            this.servlet = AdminServlet.builder(queue);
        }

        /**
         * The replayer of {@code POST .../replay}; by default {@code Replayer.of(queue)}.
         *
         * @param replayer the replayer
         * @return this builder
         */
        public Builder replayer(Replayer replayer) {
            servlet.replayer(replayer);
            return this;
        }

        /**
         * The registry the registry routes change; by default {@code RegistryResolver.of(queue).registry()}.
         *
         * @param registry the queue's endpoint registry, with its address check
         * @return this builder
         */
        public Builder endpointRegistry(EndpointRegistry registry) {
            servlet.endpointRegistry(registry);
            return this;
        }

        /**
         * The node's pipeline, for the scheduler's view of a tenant.
         *
         * @param pipeline the pipeline
         * @return this builder
         */
        public Builder pipeline(Pipeline pipeline) {
            servlet.pipeline(pipeline);
            return this;
        }

        /**
         * Who may do what (required).
         *
         * @param policy the access policy
         * @return this builder
         */
        public Builder accessPolicy(AccessPolicy policy) {
            servlet.accessPolicy(policy);
            return this;
        }

        /**
         * The address to listen on; {@code 127.0.0.1} by default.
         *
         * @param host an IP address or host name
         * @return this builder
         */
        public Builder host(String host) {
            this.host = Objects.requireNonNull(host, "host");
            return this;
        }

        /**
         * The port to listen on; 0 (the default) lets the system choose one ({@link AdminServer#port()}).
         *
         * @param port 0..65 535
         * @return this builder
         */
        public Builder port(int port) {
            if (port < 0 || port > 0xFFFF) {
                throw new IllegalArgumentException("port out of range 0..65535: " + port);
            }
            this.port = port;
            return this;
        }

        /**
         * Whether an address that is not loopback may be bound; false by default.
         *
         * @param allow true to let the server listen beyond this host
         * @return this builder
         */
        public Builder allowNonLoopback(boolean allow) {
            this.allowNonLoopback = allow;
            return this;
        }

        /**
         * Serves the HTTP ingest edge ({@code POST /v1/hooks}) beside the admin API; off unless
         * given. The edge authenticates with its own producer tokens, not the access policy's.
         *
         * @param edge the edge, as {@link HookIngestServlet#builder} built it
         * @return this builder
         */
        public Builder hookIngest(HookIngestServlet edge) {
            this.hookIngest = Objects.requireNonNull(edge, "edge");
            return this;
        }

        /**
         * The server, not started yet.
         *
         * @return the server
         * @throws IllegalStateException     when no access policy was given
         * @throws NonLoopbackBindException  when the host is not loopback and that was not allowed
         * @throws IllegalArgumentException  when the host does not resolve
         */
        public AdminServer build() {
            AdminServlet built = servlet.build();
            InetAddress address;
            try {
                address = InetAddress.getByName(host);
            } catch (UnknownHostException e) {
                throw new IllegalArgumentException("the admin server's host does not resolve: '" + host + "'", e);
            }
            if (!address.isLoopbackAddress() && !allowNonLoopback) {
                throw new NonLoopbackBindException(host);
            }
            return new AdminServer(this, built);
        }
    }
}

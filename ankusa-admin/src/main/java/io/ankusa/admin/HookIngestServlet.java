package io.ankusa.admin;

import io.ankusa.admin.ingest.HookIngestService;
import io.ankusa.queue.Queue;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.time.Duration;
import java.util.Objects;

/**
 * The HTTP edge for producers that are not on the JVM: {@code POST} a hook as JSON and get its
 * receipt once the queue's synced commit holds it. Off unless an application mounts it, in its own
 * host (map it to one path, such as {@code /v1/hooks}) or beside the admin API on
 * {@link AdminServer.Builder#hookIngest(HookIngestServlet)}. docs/ingest-edge.md describes the
 * request, the answers and how to secure it.
 *
 * <p>Callers authenticate with an {@code Authorization: Bearer} token of {@link IngestTokens} only:
 * no cookie, no host session, so no CSRF token either (a browser on another site cannot attach
 * the bearer token to its request). Servlets are not serialised: its parts are transient.
 */
public final class HookIngestServlet extends HttpServlet {

    private static final long serialVersionUID = 1L;

    private final transient HookIngestService service;

    private HookIngestServlet(HookIngestService service) {
        this.service = service;
    }

    /**
     * A builder of the edge over {@code queue}.
     *
     * @param queue the node's queue
     * @return the builder
     */
    public static Builder builder(Queue queue) {
        return new Builder(queue);
    }

    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response) throws IOException {
        service.serve(request, response);
    }

    /** Builds a {@link HookIngestServlet}; the queue and the tokens are required. */
    public static final class Builder {

        /** The queue's default payload limit ({@code QueueConfig}'s {@code payloadMaxBytes}). */
        static final int DEFAULT_PAYLOAD_MAX_BYTES = 1024 * 1024;

        private final Queue queue;
        private IngestTokens tokens;
        private int payloadMaxBytes = DEFAULT_PAYLOAD_MAX_BYTES;
        private Duration receiptTimeout = Duration.ofSeconds(30);

        private Builder(Queue queue) {
            this.queue = Objects.requireNonNull(queue, "queue");
        }

        /**
         * The producers' tokens (required).
         *
         * @param tokens the tokens
         * @return this builder
         */
        public Builder tokens(IngestTokens tokens) {
            this.tokens = Objects.requireNonNull(tokens, "tokens");
            return this;
        }

        /**
         * The largest payload, in bytes: give the queue's {@code payloadMaxBytes} (1 MiB by default,
         * as the queue's). A request whose {@code Content-Length} says its body cannot hold a payload
         * this small is refused with 413 before it is read, and no more of a body is read than it
         * takes to know it is too large. The queue still applies its own limit.
         *
         * @param payloadMaxBytes the payload limit, at least 0
         * @return this builder
         */
        public Builder payloadMaxBytes(int payloadMaxBytes) {
            if (payloadMaxBytes < 0) {
                throw new IllegalArgumentException("payloadMaxBytes must be >= 0: " + payloadMaxBytes);
            }
            this.payloadMaxBytes = payloadMaxBytes;
            return this;
        }

        /**
         * How long a request waits for the synced commit (30 seconds by default); past it the answer
         * is 503 {@code receipt_timeout}, and the hook may or may not be queued (post it again with
         * the same id: the edge is idempotent on it).
         *
         * @param timeout the wait, positive
         * @return this builder
         */
        public Builder receiptTimeout(Duration timeout) {
            if (timeout.isNegative() || timeout.isZero()) {
                throw new IllegalArgumentException("receiptTimeout must be positive: " + timeout);
            }
            this.receiptTimeout = timeout;
            return this;
        }

        /**
         * The servlet.
         *
         * @return the servlet
         * @throws IllegalStateException when no tokens were given
         */
        public HookIngestServlet build() {
            if (tokens == null) {
                throw new IllegalStateException("an ingest edge needs tokens: there is no open default");
            }
            return new HookIngestServlet(new HookIngestService(queue, tokens::scope, payloadMaxBytes, receiptTimeout));
        }
    }
}

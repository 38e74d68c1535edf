package io.ankusa.admin;

import io.ankusa.admin.http.AdminService;
import io.ankusa.admin.page.StatsSampler;
import io.ankusa.admin.route.AdminRoutes;
import io.ankusa.api.EndpointRegistry;
import io.ankusa.dispatch.Pipeline;
import io.ankusa.dispatch.Replayer;
import io.ankusa.dispatch.http.RegistryResolver;
import io.ankusa.queue.Queue;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Objects;
import java.util.Optional;

/**
 * The admin API as a servlet, to mount in any Servlet 6 host at a path of its choosing (map it
 * to {@code /admin/*} and the routes answer under {@code /admin/v1/...}). The host may authenticate
 * the request (its user principal is used) or leave it to the policy's bearer tokens. docs/admin.md
 * lists the routes, the error codes and how to secure it.
 *
 * <p>Build it with {@link #builder(Queue)}; it cannot be built without an {@link AccessPolicy}. Each
 * instance draws its own CSRF key, so a session's token is valid for the servlet that gave it.
 * Servlets are not serialised: its parts are transient.
 */
public final class AdminServlet extends HttpServlet {

    private static final long serialVersionUID = 1L;

    private final transient AdminService service;
    private final transient StatsSampler sampler;

    AdminServlet(AdminService service, StatsSampler sampler) {
        this.service = service;
        this.sampler = sampler;
    }

    /**
     * A builder of the servlet over {@code queue}.
     *
     * @param queue the node's queue
     * @return the builder
     */
    public static Builder builder(Queue queue) {
        return new Builder(queue);
    }

    /** Starts the sampler behind the dashboard's charts (one read of the node's counters every 10 s). */
    @Override
    public void init() {
        sampler.start();
    }

    /**
     * Stops the sampler, cancels the bulk replays the API started and stops the threads the routes keep,
     * as the host takes the servlet out of service. Idempotent.
     */
    @Override
    public void destroy() {
        try {
            sampler.close();
            service.close();
        } finally {
            super.destroy();
        }
    }

    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response) throws IOException {
        service.serve(request, response);
    }

    /** Builds an {@link AdminServlet}; the queue and the access policy are required. */
    public static final class Builder {

        private final Queue queue;
        private Replayer replayer;
        private Pipeline pipeline;
        private AccessPolicy policy;
        private EndpointRegistry registry;

        private Builder(Queue queue) {
            this.queue = Objects.requireNonNull(queue, "queue");
        }

        /**
         * The replayer of {@code POST .../replay}; by default {@code Replayer.of(queue)}.
         *
         * @param replayer the replayer
         * @return this builder
         */
        public Builder replayer(Replayer replayer) {
            this.replayer = Objects.requireNonNull(replayer, "replayer");
            return this;
        }

        /**
         * The node's pipeline, whose scheduler's view of a tenant {@code GET /v1/tenants/{tenant}}
         * shows; without one that field is {@code null}.
         *
         * @param pipeline the pipeline
         * @return this builder
         */
        public Builder pipeline(Pipeline pipeline) {
            this.pipeline = Objects.requireNonNull(pipeline, "pipeline");
            return this;
        }

        /**
         * The registry the registry routes change; by default {@code RegistryResolver.of(queue).registry()},
         * which refuses URLs of private and loopback addresses. Give the one the node's dispatcher
         * resolves through when it registers with another address guard.
         *
         * @param registry the queue's endpoint registry, with its address check
         * @return this builder
         */
        public Builder endpointRegistry(EndpointRegistry registry) {
            this.registry = Objects.requireNonNull(registry, "registry");
            return this;
        }

        /**
         * Who may do what (required).
         *
         * @param policy the access policy
         * @return this builder
         */
        public Builder accessPolicy(AccessPolicy policy) {
            this.policy = Objects.requireNonNull(policy, "policy");
            return this;
        }

        /**
         * The servlet.
         *
         * @return the servlet
         * @throws IllegalStateException when no access policy was given
         */
        public AdminServlet build() {
            if (policy == null) {
                throw new IllegalStateException("an admin API needs an access policy: there is no open default");
            }
            Replayer r = replayer == null ? Replayer.of(queue) : replayer;
            StatsSampler sampler = new StatsSampler(queue, Optional.ofNullable(pipeline));
            EndpointRegistry endpoints = registry == null ? RegistryResolver.of(queue).registry() : registry;
            AdminService service = new AdminService(AdminRoutes.router(queue, r, Optional.ofNullable(pipeline),
                    sampler::history, endpoints), new PolicyCallers(policy));
            return new AdminServlet(service, sampler);
        }
    }
}

package io.ankusa.admin.route;

import com.fasterxml.jackson.databind.JsonNode;
import io.ankusa.api.EndpointRegistry;
import io.ankusa.dispatch.Pipeline;
import io.ankusa.dispatch.Replayer;
import io.ankusa.dispatch.http.RegistryResolver;
import io.ankusa.queue.Queue;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Every route of the API, {@code /v1} below the mount point, over a node's public {@link Queue},
 * its {@link Replayer} and (when given) its {@link Pipeline}. Each route is a point read or one
 * bounded range scan through those APIs; none scans a whole family.
 */
public final class AdminRoutes {

    private AdminRoutes() {
    }

    /**
     * The router over {@code queue}.
     *
     * @param queue    the node's queue
     * @param replayer its replayer
     * @param pipeline its pipeline, for the scheduler's view of a tenant; empty when there is none
     * @return the router
     */
    public static Router router(Queue queue, Replayer replayer, Optional<Pipeline> pipeline) {
        return router(queue, replayer, pipeline, NodeRoutes::noHistory);
    }

    /**
     * The router over {@code queue}, whose {@code GET /v1/stats/history} answers {@code history}'s
     * samples (a ring kept by the caller, never a read per request).
     *
     * @param queue    the node's queue
     * @param replayer its replayer
     * @param pipeline its pipeline, for the scheduler's view of a tenant; empty when there is none
     * @param history  the last hour of the node's counters
     * @return the router
     */
    public static Router router(Queue queue, Replayer replayer, Optional<Pipeline> pipeline,
            Supplier<JsonNode> history) {
        return router(queue, replayer, pipeline, history, RegistryResolver.of(queue).registry());
    }

    /**
     * The router over {@code queue}, whose registry routes change {@code registry} (by default the
     * dispatcher's {@code RegistryResolver.of(queue).registry()}, which refuses URLs of private and
     * loopback addresses).
     *
     * @param queue    the node's queue
     * @param replayer its replayer
     * @param pipeline its pipeline, for the scheduler's view of a tenant; empty when there is none
     * @param history  the last hour of the node's counters
     * @param registry the queue's endpoint registry, with the address check endpoints are registered under
     * @return the router
     */
    public static Router router(Queue queue, Replayer replayer, Optional<Pipeline> pipeline,
            Supplier<JsonNode> history, EndpointRegistry registry) {
        Objects.requireNonNull(queue, "queue");
        Objects.requireNonNull(registry, "registry");
        Objects.requireNonNull(history, "history");
        Objects.requireNonNull(replayer, "replayer");
        Objects.requireNonNull(pipeline, "pipeline");
        NodeRoutes node = new NodeRoutes(queue);
        TenantRanking ranking = new TenantRanking(queue, Clock.systemUTC());
        TenantRoutes tenants = new TenantRoutes(queue, pipeline, ranking);
        TenantMutations mutations = new TenantMutations(queue);
        HookRoutes hooks = new HookRoutes(queue, replayer);
        ReplayJobs jobs = new ReplayJobs(replayer, Clock.systemUTC());
        ReplayRoutes replays = new ReplayRoutes(queue, replayer, jobs);
        RegistryRoutes registered = new RegistryRoutes(registry);
        List<Route> routes = new ArrayList<>();
        get(routes, "/v1/session", NodeRoutes::session);
        get(routes, "/v1/openapi.json", r -> ApiResponse.ok(OpenApi.document()));
        get(routes, "/v1/stats", node::stats);
        get(routes, "/v1/stats/history", r -> ApiResponse.ok(history.get()));
        get(routes, "/v1/tenants", tenants::list);
        get(routes, "/v1/tenants/{tenant}", tenants::tenant);
        get(routes, "/v1/tenants/{tenant}/dead", tenants::dead);
        get(routes, "/v1/tenants/{tenant}/attempts", tenants::attempts);
        get(routes, "/v1/tenants/{tenant}/quarantine", tenants::quarantine);
        post(routes, "/v1/tenants/{tenant}/replay", replays::replayTenant);
        get(routes, "/v1/tenants/{tenant}/hooks/{seq}", hooks::hook);
        get(routes, "/v1/tenants/{tenant}/hooks/{seq}/attempts", hooks::attempts);
        post(routes, "/v1/tenants/{tenant}/hooks/{seq}/replay", hooks::replay);
        get(routes, "/v1/endpoints", node::endpoints);
        post(routes, "/v1/tenants/{tenant}/endpoints/{sink}/enable", mutations::enable);
        post(routes, "/v1/tenants/{tenant}/endpoints/{sink}/disable", mutations::disable);
        get(routes, "/v1/tenants/{tenant}/registry", registered::list);
        post(routes, "/v1/tenants/{tenant}/registry", registered::add);
        get(routes, "/v1/tenants/{tenant}/registry/{id}", registered::get);
        post(routes, "/v1/tenants/{tenant}/registry/{id}", registered::update);
        post(routes, "/v1/tenants/{tenant}/registry/{id}/rotate", registered::rotate);
        post(routes, "/v1/tenants/{tenant}/registry/{id}/remove", registered::remove);
        get(routes, "/v1/quarantine", node::quarantine);
        post(routes, "/v1/tenants/{tenant}/quarantine/release", mutations::releaseQuarantine);
        post(routes, "/v1/tenants/{tenant}/quarantine/purge", mutations::purgeQuarantine);
        post(routes, "/v1/tenants/{tenant}/purge", mutations::purge);
        post(routes, "/v1/tenants/{tenant}/erase", mutations::erase);
        get(routes, "/v1/audit", node::audit);
        get(routes, "/v1/dead", replays::dead);
        post(routes, "/v1/replay", replays::replaySelection);
        post(routes, "/v1/replay/page", replays::replayPage);
        post(routes, "/v1/replays", replays::startJob);
        get(routes, "/v1/replays", replays::listJobs);
        get(routes, "/v1/replays/{id}", replays::getJob);
        post(routes, "/v1/replays/{id}/cancel", replays::cancelJob);
        return new Router(routes, List.of(ranking, jobs));
    }

    private static void get(List<Route> routes, String template, Handler handler) {
        routes.add(new Route("GET", new PathTemplate(template), handler));
    }

    private static void post(List<Route> routes, String template, Handler handler) {
        routes.add(new Route("POST", new PathTemplate(template), handler));
    }
}

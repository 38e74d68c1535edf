package io.ankusa.spring.boot;

import io.ankusa.api.DeadLetterCursor;
import io.ankusa.api.EndpointStatus;
import io.ankusa.api.QueueStats;
import io.ankusa.dispatch.Pipeline;
import io.ankusa.dispatch.ReplayPage;
import io.ankusa.dispatch.ReplayResult;
import io.ankusa.dispatch.Replayer;
import io.ankusa.dispatch.report.DispatchHealth;
import io.ankusa.dispatch.report.TenantHealth;
import io.ankusa.dispatch.report.TroubledTenants;
import io.ankusa.queue.Queue;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;

/**
 * The node as an actuator endpoint, {@code ankusa} ({@code /actuator/ankusa} over HTTP once the
 * application exposes it with {@code management.endpoints.web.exposure.include}). It sits behind
 * the actuator's own exposure, access ({@code management.endpoint.ankusa.access}) and the
 * application's security, like every actuator endpoint.
 *
 * <p>Read: the queue's {@code stats} (counters), {@code tenants} (how many), {@code oldestDueAge};
 * with a pipeline, {@code deliverable} (the oldest row the node should be delivering now),
 * {@code held} (rows held back by design, by reason: tenants, rows, oldest age) and
 * {@code topTenants} (the troubled tenants, top N by oldest due age and by recent failure rate).
 * Durations in ISO-8601. Every read is as cheap as the health check's: counters and the
 * scheduler's in-memory view, no scan.
 *
 * <p>Write ({@code POST}, a JSON body): {@code /actuator/ankusa/replay} revives dead letters through
 * the {@link Replayer} — of a {@code tenant}, of one hook of it ({@code tenant} and {@code hookId}),
 * or, with no tenant, the newest page of the node's ({@code limit}, and {@code after}, the
 * {@code next} token of the page before); {@code /actuator/ankusa/enable} enables the endpoint
 * {@code (tenant, sink)} ({@code sink} 0 when not given). Both are audited by the queue.
 */
@Endpoint(id = "ankusa")
public class AnkusaEndpoint {

    /** Troubled tenants listed by the read operation, for each ranking. */
    static final int TOP_TENANTS = 10;

    /** Dead letters a page replay revives when the request gives no {@code limit}. */
    static final int DEFAULT_PAGE = 100;

    private final Queue queue;
    private final Replayer replayer;
    private final Supplier<Optional<Pipeline>> pipeline;

    /**
     * @param queue    the queue
     * @param replayer its replayer
     * @param pipeline the node's pipeline, looked up at each read (empty: the node only ingests)
     */
    public AnkusaEndpoint(Queue queue, Replayer replayer, Supplier<Optional<Pipeline>> pipeline) {
        this.queue = Objects.requireNonNull(queue, "queue");
        this.replayer = Objects.requireNonNull(replayer, "replayer");
        this.pipeline = Objects.requireNonNull(pipeline, "pipeline");
    }

    /** {@return the node's counters, its held rows by reason and its troubled tenants} */
    @ReadOperation
    public Map<String, Object> node() {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("state", queue.health().state().name());
        body.put("stats", stats(queue.stats()));
        body.put("tenants", queue.tenantCount());
        queue.oldestDueAge().ifPresent(age -> body.put("oldestDueAge", age.toString()));
        Optional<Pipeline> current = pipeline.get();
        body.put("pipeline", current.isPresent());
        current.ifPresent(p -> {
            DispatchHealth health = p.dispatchHealth();
            health.oldestDeliverableAge().ifPresent(age -> body.put("oldestDeliverableAge", age.toString()));
            body.put("held", HeldRowsDetails.byReason(health.held()));
            TroubledTenants troubled = p.troubledTenants(TOP_TENANTS);
            Map<String, Object> top = new LinkedHashMap<>();
            top.put("byOldestDue", troubled.byOldestDue().stream().map(AnkusaEndpoint::tenant).toList());
            top.put("byFailureRate", troubled.byFailureRate().stream().map(AnkusaEndpoint::tenant).toList());
            body.put("topTenants", top);
        });
        return body;
    }

    /**
     * Acts on the node: {@code replay} or {@code enable}.
     *
     * @param action {@code replay} or {@code enable}
     * @param tenant the tenant; for {@code replay}, none replays the newest page of the node's dead letters
     * @param hookId {@code replay}: only the dead letters of this hook of {@code tenant}
     * @param limit  {@code replay} without a tenant: how many dead letters, 1..10 000 (default 100)
     * @param after  {@code replay} without a tenant: the {@code next} token of the page before
     * @param sink   {@code enable}: the sink number (default 0)
     * @return what was done: the replay's counts, or the endpoint's state now
     */
    @WriteOperation
    public Map<String, Object> act(@Selector String action, @Nullable String tenant, @Nullable String hookId,
            @Nullable Integer limit, @Nullable String after, @Nullable Integer sink) {
        return switch (action) {
            case "replay" -> replay(tenant, hookId, limit, after);
            case "enable" -> enable(tenant, sink);
            default -> throw new InvalidEndpointRequestException("unknown action '" + action
                    + "': replay or enable", "unknown action");
        };
    }

    private Map<String, Object> replay(@Nullable String tenant, @Nullable String hookId, @Nullable Integer limit,
            @Nullable String after) {
        if (tenant == null) {
            if (hookId != null) {
                throw new InvalidEndpointRequestException("a replay by hookId needs its tenant",
                        "hookId without tenant");
            }
            int pageLimit = limit == null ? DEFAULT_PAGE : limit;
            ReplayPage page;
            try {
                page = after == null ? replayer.replayPage(pageLimit)
                        : replayer.replayPage(DeadLetterCursor.parse(after), pageLimit);
            } catch (IllegalArgumentException e) {
                throw new InvalidEndpointRequestException(e.getMessage(), "bad page");
            }
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("revived", page.revived());
            body.put("skipped", page.skipped());
            page.next().ifPresent(next -> body.put("next", next.token()));
            return body;
        }
        ReplayResult result = hookId == null ? replayer.replayTenant(tenant) : replayer.replayHook(tenant, hookId);
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("tenant", tenant);
        if (hookId != null) {
            body.put("hookId", hookId);
        }
        body.put("match", result.match().name());
        body.put("revived", result.revived());
        body.put("skippedNewer", result.skippedNewer());
        body.put("skippedGone", result.skippedGone());
        return body;
    }

    private Map<String, Object> enable(@Nullable String tenant, @Nullable Integer sink) {
        if (tenant == null) {
            throw new InvalidEndpointRequestException("enable needs a tenant (and a sink, 0 when not given)",
                    "no tenant");
        }
        EndpointStatus status;
        try {
            status = queue.enableEndpoint(tenant, sink == null ? 0 : sink);
        } catch (IllegalArgumentException e) {
            throw new InvalidEndpointRequestException(e.getMessage(), "bad endpoint");
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("tenant", status.tenant());
        body.put("sink", status.sink());
        body.put("state", status.state().name());
        status.reason().ifPresent(reason -> body.put("reason", reason.code()));
        return body;
    }

    private static Map<String, Object> stats(QueueStats stats) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("pending", stats.pending());
        body.put("scheduled", stats.scheduled());
        body.put("inflight", stats.inflight());
        body.put("dead", stats.dead());
        body.put("quarantined", stats.quarantined());
        body.put("bytes", stats.bytes());
        body.put("archivePending", stats.archivePending());
        return body;
    }

    private static Map<String, Object> tenant(TenantHealth health) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("tenant", health.tenantId());
        body.put("hold", health.hold().name());
        health.oldestDueAge().map(Duration::toString).ifPresent(age -> body.put("oldestDueAge", age));
        body.put("recentAttempts", health.recentAttempts());
        body.put("recentFailures", health.recentFailures());
        body.put("failureRate", health.failureRate());
        return body;
    }
}

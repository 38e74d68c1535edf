package io.ankusa.spring.boot;

import io.ankusa.api.DiskUsage;
import io.ankusa.api.QueueHealth;
import io.ankusa.dispatch.HealthLimits;
import io.ankusa.dispatch.NodeHealth;
import io.ankusa.dispatch.Pipeline;
import io.ankusa.dispatch.report.DispatchHealth;
import io.ankusa.queue.Queue;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * The node's health, as {@code ankusa}, judged by {@link NodeHealth}: DOWN when the queue is closed
 * or failed (a long-lived thread died, the tick loop among them), when the oldest row the node
 * should be delivering now is older than {@code ankusa.health.max-oldest-due-age}, when the tick
 * loop has not ended a tick for {@code ankusa.health.max-tick-silence}, or when the sink has given
 * no outcome for {@code ankusa.health.max-sink-silence} while its attempts ran out the sink
 * deadline. Rows held back by design (a tenant at its in-flight limit or delivery rate, an endpoint
 * disabled, paused, behind an open breaker or at its concurrency limit) are details, never DOWN.
 *
 * <p>Details: {@code state}; when DOWN, {@code problems} (code and message each) and {@code reason}
 * (the first message); {@code oldestDueAge} (every due row), {@code oldestDeliverableAge},
 * {@code held} (by reason: tenants, rows, oldest age), {@code sinceLastTick} and {@code sinkSilentFor}
 * when there is a pipeline; {@code disk} ({@code storeBytes}, {@code historyBytes},
 * {@code historyMaxBytes}: {@code Queue.diskUsage()}, never a reason for DOWN: a store that grows
 * is for an operator to size, and a write the disk refuses fails the queue, which is DOWN); the
 * limits. Durations in ISO-8601.
 */
public final class AnkusaHealthIndicator implements HealthIndicator {

    private final Queue queue;
    private final Supplier<Optional<Pipeline>> pipeline;
    private final HealthLimits limits;

    /**
     * @param queue    the queue
     * @param pipeline the node's pipeline, looked up at each check (empty: the node only ingests)
     * @param limits   what the node is judged by
     */
    public AnkusaHealthIndicator(Queue queue, Supplier<Optional<Pipeline>> pipeline, HealthLimits limits) {
        this.queue = Objects.requireNonNull(queue, "queue");
        this.pipeline = Objects.requireNonNull(pipeline, "pipeline");
        this.limits = Objects.requireNonNull(limits, "limits");
    }

    @Override
    public Health health() {
        // A closed or failed queue is DOWN whatever the pipeline says (and its context may be closed).
        NodeHealth node = NodeHealth.of(queue, queue.health().running() ? pipeline.get() : Optional.empty(), limits);
        QueueHealth queueHealth = node.queue();
        Health.Builder builder = node.status() == NodeHealth.Status.UP ? Health.up() : Health.down();
        builder.withDetail("state", queueHealth.state().name());
        queueHealth.component().ifPresent(component -> builder.withDetail("component", component));
        queueHealth.cause().ifPresent(cause -> builder.withDetail("cause", cause));
        if (!node.problems().isEmpty()) {
            builder.withDetail("reason", node.problems().get(0).message());
            builder.withDetail("problems", node.problems().stream()
                    .map(p -> Map.of("code", p.code().name(), "message", p.message())).toList());
        }
        if (queueHealth.running()) {
            queue.oldestDueAge().ifPresent(age -> builder.withDetail("oldestDueAge", age.toString()));
            builder.withDetail("disk", disk(queue.diskUsage()));
        }
        node.dispatch().ifPresent(d -> dispatchDetails(builder, d));
        limits.maxDeliverableAge().ifPresent(max -> builder.withDetail("maxOldestDueAge", max.toString()));
        builder.withDetail("maxTickSilence", limits.maxTickSilence().toString());
        builder.withDetail("maxSinkSilence", limits.maxSinkSilence().toString());
        return builder.build();
    }

    private static void dispatchDetails(Health.Builder builder, DispatchHealth d) {
        d.oldestDeliverableAge().ifPresent(age -> builder.withDetail("oldestDeliverableAge", age.toString()));
        builder.withDetail("held", HeldRowsDetails.byReason(d.held()));
        d.sinceLastTick().ifPresent(since -> builder.withDetail("sinceLastTick", since.toString()));
        d.sinkSilentFor().ifPresent(silent -> builder.withDetail("sinkSilentFor", silent.toString()));
    }

    /** The disk figures: a detail only, whatever their size (a full disk fails writes, which the queue reports). */
    private static Map<String, Object> disk(DiskUsage disk) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("storeBytes", disk.storeBytes());
        out.put("historyBytes", disk.historyBytes());
        out.put("historyMaxBytes", disk.historyMaxBytes());
        return out;
    }
}

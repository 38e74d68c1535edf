package io.ankusa.spring.boot;

import io.ankusa.api.QueueHealth;
import io.ankusa.queue.Queue;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * The queue's health, as {@code ankusa}: DOWN when the queue is closed or failed
 * ({@link Queue#health()}: a long-lived thread died, with the thread and its cause as details), or
 * when the oldest due delivery is older than {@code ankusa.health.max-oldest-due-age} (dispatch is
 * not keeping up); UP otherwise. Details: {@code state} and {@code oldestDueAge} (ISO-8601).
 */
public final class AnkusaHealthIndicator implements HealthIndicator {

    private final Queue queue;
    private final Optional<Duration> maxOldestDueAge;

    /**
     * @param queue           the queue
     * @param maxOldestDueAge the oldest due age past which the queue is DOWN; empty for none
     */
    public AnkusaHealthIndicator(Queue queue, Optional<Duration> maxOldestDueAge) {
        this.queue = Objects.requireNonNull(queue, "queue");
        this.maxOldestDueAge = Objects.requireNonNull(maxOldestDueAge, "maxOldestDueAge");
    }

    @Override
    public Health health() {
        QueueHealth health = queue.health();
        if (!health.running()) {
            Health.Builder down = Health.down().withDetail("state", health.state().name());
            health.component().ifPresent(component -> down.withDetail("component", component));
            health.cause().ifPresent(cause -> down.withDetail("cause", cause));
            return down.build();
        }
        Optional<Duration> oldest = queue.oldestDueAge();
        boolean lagging = oldest.isPresent() && maxOldestDueAge.isPresent()
                && oldest.get().compareTo(maxOldestDueAge.get()) > 0;
        Health.Builder builder = lagging
                ? Health.down().withDetail("reason", "oldest due delivery is older than " + maxOldestDueAge.get())
                : Health.up();
        builder.withDetail("state", health.state().name());
        oldest.ifPresent(age -> builder.withDetail("oldestDueAge", age.toString()));
        maxOldestDueAge.ifPresent(max -> builder.withDetail("maxOldestDueAge", max.toString()));
        return builder.build();
    }
}

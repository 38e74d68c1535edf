package io.ankusa.spring.boot;

import io.ankusa.api.QueueConfig;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.Environment;

/**
 * The queue's {@code ankusa.*} properties as the string keys of {@link QueueConfig#fromMap}
 * ({@code ankusa.directory}, {@code ankusa.tenants.max}, {@code ankusa.store.lmdb.mapSize}, …):
 * every property under {@code ankusa.} but the starter's own groups ({@code ankusa.pipeline.*},
 * {@code ankusa.health.*}, {@code ankusa.outbox.*}, {@code ankusa.metrics.*}, {@code ankusa.http.*},
 * {@code ankusa.admin.*}).
 * They are bound as a flat map and handed to {@code fromMap} unchanged, so an unknown key or a bad
 * value fails the application's start with {@code fromMap}'s message, which names each.
 */
final class AnkusaQueueProperties {

    /** The prefix of every Ankusa property. */
    static final String PREFIX = "ankusa";

    /** Groups under the prefix that are the starter's, not the queue's. */
    private static final Set<String> STARTER_GROUPS = Set.of("pipeline.", "health.", "outbox.", "metrics.", "http.",
            "admin.");

    private AnkusaQueueProperties() {
    }

    /** {@return the queue's keys and values set in {@code environment}} */
    static Map<String, String> of(Environment environment) {
        Map<String, String> bound = Binder.get(environment)
                .bind(PREFIX, Bindable.mapOf(String.class, String.class))
                .orElseGet(Map::of);
        Map<String, String> keys = new LinkedHashMap<>();
        bound.forEach((key, value) -> {
            if (STARTER_GROUPS.stream().noneMatch(key::startsWith)) {
                keys.put(key, value);
            }
        });
        return keys;
    }

    /** {@return a builder of the queue's config from {@code environment}; {@code ankusa.directory} is required} */
    static QueueConfig.Builder builder(Environment environment) {
        QueueConfig config = QueueConfig.fromMap(of(environment));
        // Re-applied on a builder, so that the application's TenantPolicies can still be set.
        return QueueConfig.builder(config.directory()).configure(of(environment));
    }
}

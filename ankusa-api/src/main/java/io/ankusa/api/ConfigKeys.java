package io.ankusa.api;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.BiConsumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The string keys of {@link QueueConfig} (docs/configuration.md), and how each value is read. One
 * table: {@link QueueConfig#fromMap}, {@link QueueConfig.Builder#configure} and the documentation
 * name the same keys.
 */
final class ConfigKeys {

    /** The key of the store directory (required by {@link QueueConfig#fromMap}). */
    static final String DIRECTORY = "directory";

    /** Prefix of backend settings: {@code store.lmdb.mapSize} is the store setting {@code lmdb.mapSize}. */
    static final String STORE_PREFIX = "store.";

    private static final Pattern DURATION = Pattern.compile("(\\d+)\\s*(ms|s|m|h|d)");
    private static final Pattern SIZE = Pattern.compile("(\\d+)\\s*(B|KiB|MiB|GiB)?");

    private static final Map<String, BiConsumer<QueueConfig.Builder, String>> KEYS = keys();

    private ConfigKeys() {
    }

    private static Map<String, BiConsumer<QueueConfig.Builder, String>> keys() {
        Map<String, BiConsumer<QueueConfig.Builder, String>> keys = new LinkedHashMap<>();
        keys.put("backend", (b, v) -> b.backend(name("backend", v)));
        keys.put("tenants.max", (b, v) -> b.tenantsMax(count("tenants.max", v, 1, QueueConfig.TENANTS_MAX_LIMIT)));
        keys.put("batch.max-hooks", (b, v) -> b.batchMaxHooks((int) count("batch.max-hooks", v, 1, Integer.MAX_VALUE)));
        keys.put("batch.max-bytes", (b, v) -> b.batchMaxBytes(size("batch.max-bytes", v, 1, Long.MAX_VALUE)));
        keys.put("payload.max-bytes",
                (b, v) -> b.payloadMaxBytes((int) size("payload.max-bytes", v, 0, Integer.MAX_VALUE)));
        keys.put("ingest.queue-capacity",
                (b, v) -> b.ingestQueueCapacity((int) count("ingest.queue-capacity", v, 1, Integer.MAX_VALUE - 1)));
        keys.put("archive", (b, v) -> b.archive(bool("archive", v)));
        keys.put("dedupe.window", (b, v) -> b.dedupeWindow(duration("dedupe.window", v, Duration.ofMillis(1))));
        keys.put("audit.retention", (b, v) -> b.auditRetention(duration("audit.retention", v, Duration.ofMillis(1))));
        keys.put("housekeeping.interval",
                (b, v) -> b.housekeepingInterval(duration("housekeeping.interval", v, Duration.ZERO)));
        keys.put("admission.node-max-bytes",
                (b, v) -> b.nodeMaxBytes(size("admission.node-max-bytes", v, 1, Long.MAX_VALUE)));
        keys.put("events.capacity", (b, v) -> b.eventCapacity((int) count("events.capacity", v, 1, Integer.MAX_VALUE)));
        keys.put("attempts.per-delivery", (b, v) -> b.attemptsPerDelivery(
                (int) count("attempts.per-delivery", v, 0, QueueConfig.ATTEMPTS_PER_DELIVERY_LIMIT)));
        keys.put("attempts.retention",
                (b, v) -> b.attemptsRetention(duration("attempts.retention", v, Duration.ofMillis(1))));
        keys.put("attempts.max-bytes",
                (b, v) -> b.attemptsMaxBytes(size("attempts.max-bytes", v, 1, Long.MAX_VALUE)));
        keys.put("endpoint.disable-after",
                (b, v) -> b.endpoints(b.endpoints()
                .withDisableAfter(duration("endpoint.disable-after", v, Duration.ofMillis(1)))));
        keys.put("endpoint.disabled-policy",
                (b, v) -> b.endpoints(b.endpoints().withDisabledPolicy(disabledPolicy(v))));
        keys.put("endpoint.max-concurrency", (b, v) -> b.endpoints(b.endpoints().withMaxConcurrency(
                endpointConcurrency(v))));
        keys.put("endpoint.breaker-failures", (b, v) -> b.endpoints(b.endpoints().withBreaker(
                (int) count("endpoint.breaker-failures", v, 1, Integer.MAX_VALUE), b.endpoints().breakerInterval())));
        keys.put("endpoint.breaker-interval", (b, v) -> b.endpoints(b.endpoints().withBreaker(
                b.endpoints().breakerFailures(), duration("endpoint.breaker-interval", v, Duration.ofMillis(1)))));
        return keys;
    }

    /** The keys with a fixed name, in the order docs/configuration.md lists them ({@link #DIRECTORY} first). */
    static List<String> names() {
        List<String> names = new ArrayList<>();
        names.add(DIRECTORY);
        names.addAll(KEYS.keySet());
        return names;
    }

    /**
     * Applies every entry of {@code values} to {@code builder}; {@link #DIRECTORY} is skipped (the
     * builder already has one).
     *
     * @throws IllegalArgumentException naming every unknown key and every bad value at once
     */
    static void apply(QueueConfig.Builder builder, Map<String, String> values) {
        Objects.requireNonNull(values, "values");
        List<String> problems = new ArrayList<>();
        for (Map.Entry<String, String> e : values.entrySet()) {
            String key = Objects.requireNonNull(e.getKey(), "a key is null");
            String value = e.getValue();
            if (value == null) {
                problems.add("'" + key + "' has no value");
                continue;
            }
            value = value.strip();
            try {
                if (key.equals(DIRECTORY)) {
                    continue;
                } else if (key.startsWith(STORE_PREFIX) && key.length() > STORE_PREFIX.length()) {
                    builder.storeSetting(key.substring(STORE_PREFIX.length()), value);
                } else if (KEYS.containsKey(key)) {
                    KEYS.get(key).accept(builder, value);
                } else {
                    problems.add("unknown key '" + key + "'");
                }
            } catch (IllegalArgumentException bad) {
                problems.add(bad.getMessage());
            }
        }
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException("queue configuration: " + String.join("; ", problems)
                    + " (known keys: " + DIRECTORY + ", " + String.join(", ", KEYS.keySet()) + ", "
                    + STORE_PREFIX + "<backend setting>)");
        }
    }

    private static IllegalArgumentException bad(String key, String value, String expected) {
        return new IllegalArgumentException("'" + key + "' = '" + value + "' is not " + expected);
    }

    private static EndpointSettings.DisabledPolicy disabledPolicy(String value) {
        for (EndpointSettings.DisabledPolicy policy : EndpointSettings.DisabledPolicy.values()) {
            if (policy.code().equals(value)) {
                return policy;
            }
        }
        throw bad("endpoint.disabled-policy", value, "wait or dead-letter");
    }

    private static String name(String key, String value) {
        if (value.isEmpty()) {
            throw bad(key, value, "a backend name");
        }
        return value;
    }

    /** {@code sink} (the sink's own limit) or a count of at least 1. */
    private static int endpointConcurrency(String value) {
        if ("sink".equals(value)) {
            return EndpointSettings.SINK_CONCURRENCY;
        }
        try {
            return (int) count("endpoint.max-concurrency", value, 1, Integer.MAX_VALUE);
        } catch (IllegalArgumentException e) {
            throw bad("endpoint.max-concurrency", value, "sink or a whole number in 1.." + Integer.MAX_VALUE);
        }
    }

    private static long count(String key, String value, long min, long max) {
        long n;
        try {
            n = Long.parseLong(value.replace("_", ""));
        } catch (NumberFormatException e) {
            throw bad(key, value, "a whole number in " + min + ".." + max);
        }
        if (n < min || n > max) {
            throw bad(key, value, "a whole number in " + min + ".." + max);
        }
        return n;
    }

    private static long size(String key, String value, long min, long max) {
        String expected = "a size in bytes in " + min + ".." + max
                + " (a whole number, optionally with B, KiB, MiB or GiB)";
        Matcher m = SIZE.matcher(value.replace("_", ""));
        if (!m.matches()) {
            throw bad(key, value, expected);
        }
        int shift = switch (m.group(2) == null ? "B" : m.group(2)) {
            case "KiB" -> 10;
            case "MiB" -> 20;
            case "GiB" -> 30;
            default -> 0;
        };
        long n;
        try {
            n = Long.parseLong(m.group(1));
        } catch (NumberFormatException e) {
            throw bad(key, value, expected);
        }
        if (n > (max >> shift) || (n << shift) < min) {
            throw bad(key, value, expected);
        }
        return n << shift;
    }

    private static boolean bool(String key, String value) {
        return switch (value.toLowerCase(Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw bad(key, value, "true or false");
        };
    }

    private static Duration duration(String key, String value, Duration min) {
        String expected = "a duration of at least " + min.toMillis()
                + " ms (500ms, 30s, 5m, 24h, 90d or ISO-8601 such as PT1S)";
        Duration d;
        Matcher m = DURATION.matcher(value);
        try {
            if (m.matches()) {
                long n = Long.parseLong(m.group(1));
                d = switch (m.group(2)) {
                    case "ms" -> Duration.ofMillis(n);
                    case "s" -> Duration.ofSeconds(n);
                    case "m" -> Duration.ofMinutes(n);
                    case "h" -> Duration.ofHours(n);
                    default -> Duration.ofDays(n);
                };
            } else {
                d = Duration.parse(value);
            }
        } catch (NumberFormatException | DateTimeParseException | ArithmeticException e) {
            throw bad(key, value, expected);
        }
        if (d.compareTo(min) < 0) {
            throw bad(key, value, expected);
        }
        return d;
    }
}

package io.ankusa.dispatch.sink;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * What a stuck head of an ordering key does: the deliveries of one (tenant, sink, ordering key)
 * are attempted one at a time in ingest order, so while the head retries, the rest of its key waits.
 *
 * <p>{@link #block()} (the default) lets the head retry as the {@link RetryPolicy} says: its key
 * waits until the head is delivered or dead-lettered by that policy. {@link #skipAfter(int)} and
 * {@link #skipAfter(Duration)} end the wait sooner: a head that fails again at or past that many
 * attempts, or that long after it was ingested, is dead-lettered at once with a reason starting
 * {@value #SKIPPED}, and the next delivery of its key goes. A skipped head replayed from the dead
 * letters is delivered out of order. {@link #withSink} states another policy for one sink.
 *
 * <p>Immutable; one policy serves every thread.
 */
public final class OrderingPolicy {

    /** The reason prefix of a head dead-lettered by this policy. */
    public static final String SKIPPED = "ordering_skipped";

    private static final OrderingPolicy BLOCK = new OrderingPolicy(0, Duration.ZERO, Map.of());

    /** Attempts after which a failing head is skipped; 0 for never. */
    private final int attempts;
    /** Age (since ingest) after which a failing head is skipped; zero for never. */
    private final Duration age;
    private final Map<Integer, OrderingPolicy> bySink;

    private OrderingPolicy(int attempts, Duration age, Map<Integer, OrderingPolicy> bySink) {
        this.attempts = attempts;
        this.age = age;
        this.bySink = Map.copyOf(bySink);
    }

    /**
     * The head retries as long as the retry policy lets it; its key waits.
     *
     * @return the blocking policy
     */
    public static OrderingPolicy block() {
        return BLOCK;
    }

    /**
     * A head that fails its {@code attempts}-th attempt (or a later one) is dead-lettered, and its
     * key goes on.
     *
     * @param attempts attempts in all, at least 1
     * @return the policy
     */
    public static OrderingPolicy skipAfter(int attempts) {
        if (attempts < 1) {
            throw new IllegalArgumentException("attempts must be at least 1: " + attempts);
        }
        return new OrderingPolicy(attempts, Duration.ZERO, Map.of());
    }

    /**
     * A head that fails {@code age} or longer after its hook was ingested is dead-lettered, and its
     * key goes on.
     *
     * @param age how long a head may hold up its key, positive
     * @return the policy
     */
    public static OrderingPolicy skipAfter(Duration age) {
        Objects.requireNonNull(age, "age");
        if (age.isNegative() || age.isZero()) {
            throw new IllegalArgumentException("age must be positive: " + age);
        }
        return new OrderingPolicy(0, age, Map.of());
    }

    /**
     * This policy, with {@code policy} for the deliveries to {@code sink} instead.
     *
     * @param sink   the sink number, 0..65535
     * @param policy what a stuck head of that sink does (its own per-sink policies are ignored)
     * @return the policy
     */
    public OrderingPolicy withSink(int sink, OrderingPolicy policy) {
        if (sink < 0 || sink > 0xFFFF) {
            throw new IllegalArgumentException("sink out of range 0..65535: " + sink);
        }
        Objects.requireNonNull(policy, "policy");
        Map<Integer, OrderingPolicy> next = new HashMap<>(bySink);
        next.put(sink, new OrderingPolicy(policy.attempts, policy.age, Map.of()));
        return new OrderingPolicy(attempts, age, next);
    }

    /**
     * Whether a head of {@code sink} whose attempt {@code attempt} just failed, ingested
     * {@code ageMillis} ago, is skipped rather than retried.
     *
     * @param sink      the sink number
     * @param attempt   the number of the attempt that failed, 1 for the first
     * @param ageMillis milliseconds since its hook was ingested
     * @return whether it is dead-lettered now, for its key to go on
     */
    public boolean skips(int sink, int attempt, long ageMillis) {
        OrderingPolicy p = bySink.getOrDefault(sink, this);
        return (p.attempts > 0 && attempt >= p.attempts) || (!p.age.isZero() && ageMillis >= p.age.toMillis());
    }

    @Override
    public String toString() {
        String own = attempts > 0 ? "skipAfter(" + attempts + ")" : !age.isZero() ? "skipAfter(" + age + ")" : "block";
        return bySink.isEmpty() ? own : own + " " + bySink;
    }
}

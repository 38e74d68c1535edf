package io.ankusa.tests.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.api.EndpointSettings;
import io.ankusa.api.Hook;
import io.ankusa.api.Rate;
import io.ankusa.api.TenantPolicy;
import io.ankusa.dispatch.Pipeline;
import io.ankusa.dispatch.report.TickReport;
import io.ankusa.dispatch.sink.Delivery;
import io.ankusa.dispatch.sink.RetryPolicy;
import io.ankusa.dispatch.sink.SinkOutcome;
import io.ankusa.queue.ledger.LedgerSource;
import io.ankusa.queue.ledger.TenantDirectory;
import io.ankusa.testkit.property.Action;
import io.ankusa.testkit.property.ActionSequenceCheck;
import io.ankusa.testkit.property.PropertyConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The scheduler under random interleavings of ingest, ticks whose sink answers at once
 * (delivered, retry, dead) or holds every delivery, the settling of a held tick, the clock moving
 * (retries coming due, tokens coming back) and tenant policy changes (weight, in-flight limit,
 * delivery rate; one tenant's or everyone's cache invalidated). After every step:
 *
 * <ul>
 *   <li>no row was claimed while an earlier claim of it was unsettled;</li>
 *   <li>no tenant was given a claim that took it over its in-flight limit;</li>
 *   <li>no due row was left behind by a tick that had room while its tenant had quantum: after a
 *       tick that claimed less than it could (its row limit, or fewer free sink slots), every tenant
 *       with a row due now was at its in-flight limit in that tick (held before it plus claimed by
 *       it) or out of delivery tokens (a rate-limited
 *       tenant must have a token again once its slowest interval has passed since its last
 *       claim), or all its due rows were of endpoints whose circuit breaker was open;</li>
 *   <li>an open breaker let nothing through before its interval had passed, and then one probe at a
 *       time (the test keeps its own model of each endpoint's breaker, 3 retryable failures and
 *       3 s: the sink answers every row of one endpoint alike within a step, so the model does not
 *       depend on the order in which the pipeline takes the answers);</li>
 *   <li>the counters equal a fold of the index and every due row has its marker.</li>
 * </ul>
 *
 * <p>A tick either answers all its deliveries at once (and is awaited) or holds all of them until a
 * later "settle" step answers them (and awaits it), so nothing settles behind the checks' backs.
 */
class SchedulerPropertyTest {

    @TempDir
    Path tempDir;

    static final int TENANTS = 4;
    static final int ROWS_PER_TICK = 8;
    static final int CONCURRENCY = 1_000;

    /** Retries quickly so retries come due within a few clock moves: 0.5 s, then 2 s; 4 attempts. */
    private static final RetryPolicy QUICK = RetryPolicy.builder()
            .schedule(List.of(Duration.ofMillis(500), Duration.ofSeconds(2))).maxAttempts(4).jitter(0.2).build();

    /** Policies drawn by the "policy" step. */
    private static final int[] LIMITS = {1, 2, 3, Integer.MAX_VALUE};
    private static final Rate[] RATES = {Rate.UNLIMITED, new Rate(1, 1), new Rate(2, 2), new Rate(4, 3)};

    /** A tick whose deliveries the sink holds. */
    record HeldTick(CompletionStage<TickReport> report, List<Held> deliveries) {
    }

    /** One held delivery. */
    record Held(String key, String tenant, int sink, int attempt, CompletableFuture<SinkOutcome> answer) {

        String endpoint() {
            return tenant + "/" + sink;
        }
    }

    /**
     * The test's model of one endpoint's circuit breaker ({@link #ENDPOINTS}): open
     * after {@code breakerFailures} consecutive retryable answers, for {@code breakerInterval} from
     * the last one; then one probe at a time.
     */
    static final class BreakerModel {
        int failures;
        boolean open;
        long openUntil;
        /**
         * A delivery was claimed while it was open (a probe) and no answer for the endpoint has
         * come since (the gate takes any answer of the endpoint as the end of its probe).
         */
        boolean probing;

        /** Whether the gate may refuse this endpoint's rows in a tick at {@code now} that claimed {@code claimed} of them. */
        boolean mayRefuse(long now, int claimed) {
            return open && (now < openUntil || probing || claimed > 0);
        }
    }

    /**
     * The endpoints' settings: no concurrency limit (the test is about the tenants' limits), and a
     * breaker that opens after 3 retryable answers for 3 s, so that the clock steps reach its
     * half-open state.
     */
    private static final EndpointSettings ENDPOINTS = EndpointSettings.DEFAULTS.withMaxConcurrency(Integer.MAX_VALUE)
            .withBreaker(3, Duration.ofSeconds(3));

    /** The subject: a fixture, its pipeline, the policies the application answers, and the model. */
    static final class Subject implements AutoCloseable {
        private final DispatchFixture f;
        private final Map<String, TenantPolicy> policies = new ConcurrentHashMap<>();
        private final Pipeline pipeline;
        private int hooks;
        /** Sink mode of the tick under way. */
        private boolean holding;
        private int mix;
        /** Deliveries the sink saw in the tick under way. */
        private final List<Held> seen = new ArrayList<>();
        private final List<HeldTick> heldTicks = new ArrayList<>();
        /** Claimed deliveries (hook/sink) whose claim is not settled. */
        private final Set<String> unsettled = new HashSet<>();
        /** Held deliveries by tenant. */
        private final Map<String, Integer> held = new HashMap<>();
        /** Queue-clock millis of each tenant's last claim. */
        private final Map<String, Long> lastClaimAt = new HashMap<>();
        /** The longest token interval (ms) of the rates a tenant had since its last claim. */
        private final Map<String, Double> slowestInterval = new HashMap<>();
        private final List<String> violations = new ArrayList<>();
        /** The breaker model by endpoint ({@code tenant/sink}). */
        private final Map<String, BreakerModel> breakers = new HashMap<>();

        Subject(String backend, Path dir) {
            this.f = DispatchFixture.open(backend, dir, b -> b.endpoints(ENDPOINTS).tenantPolicies(
                    tenant -> policies.getOrDefault(tenant, TenantPolicy.DEFAULT)));
            this.pipeline = f.pipeline(this::answer, b -> b.retryPolicy(QUICK).random(new SplittableRandom(5))
                    .rowsPerTick(ROWS_PER_TICK).concurrency(CONCURRENCY).sinkDeadline(Duration.ofHours(1)));
        }

        private synchronized CompletableFuture<SinkOutcome> answer(Delivery d) {
            String key = d.hookId() + "/" + d.sink();
            if (!unsettled.add(key)) {
                violations.add("claimed twice: " + key + " (attempt " + d.attempt() + ")");
            }
            CompletableFuture<SinkOutcome> answer = holding ? new CompletableFuture<>()
                    : CompletableFuture.completedFuture(outcome(d.tenantId() + "/" + d.sink(), mix));
            seen.add(new Held(key, d.tenantId(), d.sink(), d.attempt(), answer));
            return answer;
        }

        /** The answer to every delivery of {@code endpoint} in a step with {@code mix}: alike, so the order does not matter. */
        private static SinkOutcome outcome(String endpoint, int mix) {
            int h = Math.floorMod((endpoint + "/" + mix).hashCode(), 10);
            return h < 5 ? SinkOutcome.delivered() : h < 8 ? SinkOutcome.retry("HTTP 500") : SinkOutcome.dead("HTTP 410");
        }

        private TenantPolicy policy(String tenant) {
            return policies.getOrDefault(tenant, TenantPolicy.DEFAULT);
        }

        void ingest(int tenant, int count, int sinks) {
            int[] numbers = new int[sinks];
            for (int i = 0; i < sinks; i++) {
                numbers[i] = i;
            }
            for (int i = 0; i < count; i++) {
                f.ingest(Hook.builder().id("h" + hooks++).sourceId("s").tenantId("t" + tenant).payload("{}")
                        .sinks(numbers).build());
            }
        }

        void tick(boolean hold, int newMix) {
            Map<String, Integer> heldBefore = new HashMap<>(held);
            int heldTotal = held.values().stream().mapToInt(Integer::intValue).sum();
            int budget = Math.min(ROWS_PER_TICK, CONCURRENCY - heldTotal);
            List<Held> claims;
            synchronized (this) {
                holding = hold;
                mix = newMix;
                seen.clear();
            }
            CompletionStage<TickReport> report = pipeline.tick();
            synchronized (this) {
                claims = List.copyOf(seen);
            }
            if (hold) {
                heldTicks.add(new HeldTick(report, claims));
            } else {
                DispatchFixture.await(report);
                synchronized (this) {
                    claims.forEach(c -> unsettled.remove(c.key()));
                }
            }
            long now = f.now();
            Map<String, Integer> claimed = new HashMap<>();
            claims.forEach(c -> claimed.merge(c.tenant(), 1, Integer::sum));
            Map<String, Integer> claimedByEndpoint = new HashMap<>();
            claims.forEach(c -> claimedByEndpoint.merge(c.endpoint(), 1, Integer::sum));
            Set<String> refusable = new HashSet<>();
            breakers.forEach((endpoint, b) -> {
                int n = claimedByEndpoint.getOrDefault(endpoint, 0);
                if (b.open && n > 0 && (now < b.openUntil || b.probing || n > 1)) {
                    violations.add(endpoint + ": an open breaker (until " + b.openUntil + ", now " + now
                            + (b.probing ? ", probing" : "") + ") let " + n + " through");
                }
                if (b.mayRefuse(now, n)) {
                    refusable.add(endpoint);
                }
            });
            claimedByEndpoint.keySet().forEach(endpoint -> {
                BreakerModel b = breakers.get(endpoint);
                if (b != null && b.open) {
                    b.probing = true;
                }
            });
            claimed.forEach((tenant, n) -> {
                int limit = policy(tenant).maxInflight();
                int before = heldBefore.getOrDefault(tenant, 0);
                if ((long) before + n > limit) {
                    violations.add(tenant + " over its in-flight limit " + limit + ": " + before + " held, " + n
                            + " claimed");
                }
                lastClaimAt.put(tenant, now);
                slowestInterval.put(tenant, interval(policy(tenant).deliveryRate()));
                if (hold) {
                    held.merge(tenant, n, Integer::sum);
                }
            });
            if (claims.size() < budget) {
                for (int t = 0; t < TENANTS; t++) {
                    String tenant = "t" + t;
                    OptionalLong ord = LedgerSource.of(f.queue()).tenantDirectory().ord(tenant);
                    if (ord.isEmpty() || f.ledger().dueForTenant(ord.getAsLong(), now, 0, Integer.MAX_VALUE, Long.MAX_VALUE)
                            .stream().allMatch(row -> refusable.contains(tenant + "/" + row.sink()))) {
                        continue;
                    }
                    // In flight during the tick: what was held before and what the tick claimed.
                    int inflight = heldBefore.getOrDefault(tenant, 0) + claimed.getOrDefault(tenant, 0);
                    if (inflight < policy(tenant).maxInflight() && hasToken(tenant, now)) {
                        violations.add(tenant + " has a row due and room (" + inflight + " in flight, limit "
                                + policy(tenant).maxInflight() + ", " + policy(tenant).deliveryRate() + ") but a tick claiming "
                                + claims.size() + " of " + budget + " left it");
                    }
                }
            }
            if (!hold) {
                answered(claims, mix, now);
            }
        }

        /** The breaker model takes the answers of {@code deliveries}, given with {@code answerMix} at {@code now}. */
        private void answered(List<Held> deliveries, int answerMix, long now) {
            for (Held h : deliveries) {
                BreakerModel b = breakers.computeIfAbsent(h.endpoint(), e -> new BreakerModel());
                b.probing = false;
                SinkOutcome outcome = outcome(h.endpoint(), answerMix);
                if (outcome instanceof SinkOutcome.Delivered) {
                    b.failures = 0;
                    b.open = false;
                } else if (outcome instanceof SinkOutcome.Retry) {
                    b.failures++;
                    if (b.open || b.failures >= ENDPOINTS.breakerFailures()) {
                        b.open = true;
                        b.openUntil = now + ENDPOINTS.breakerInterval().toMillis();
                    }
                }
            }
        }

        /** Whether the tenant's delivery bucket must hold a token now. */
        private boolean hasToken(String tenant, long now) {
            Rate rate = policy(tenant).deliveryRate();
            if (rate.unlimited() || !lastClaimAt.containsKey(tenant)) {
                return true;
            }
            double wait = Math.max(slowestInterval.getOrDefault(tenant, 0.0), interval(rate));
            return now - lastClaimAt.get(tenant) >= Math.ceil(wait) + 1;
        }

        private static double interval(Rate rate) {
            return rate.unlimited() ? 0 : 1000 / rate.perSecond();
        }

        void settle(int which, int newMix) {
            if (heldTicks.isEmpty()) {
                return;
            }
            HeldTick tick = heldTicks.remove(Math.floorMod(which, heldTicks.size()));
            for (Held h : tick.deliveries()) {
                h.answer().complete(outcome(h.endpoint(), newMix));
            }
            DispatchFixture.await(tick.report());
            answered(tick.deliveries(), newMix, f.now());
            synchronized (this) {
                for (Held h : tick.deliveries()) {
                    unsettled.remove(h.key());
                    held.merge(h.tenant(), -1, Integer::sum);
                }
            }
        }

        void advance(long ms) {
            f.clock().advance(ms);
        }

        void policy(int tenant, int weight, int limit, int rate) {
            String name = "t" + tenant;
            TenantPolicy policy = TenantPolicy.DEFAULT.withWeight(weight).withMaxInflight(LIMITS[limit])
                    .withDeliveryRate(RATES[rate]);
            policies.put(name, policy);
            slowestInterval.merge(name, interval(RATES[rate]), Math::max);
            f.queue().tenantPolicyChanged(name);
        }

        void invalidateAll() {
            f.queue().tenantPoliciesChanged();
        }

        void check() {
            synchronized (this) {
                assertThat(violations).as("scheduler violations").isEmpty();
            }
            f.assertConsistent();
        }

        @Override
        public void close() {
            try {
                while (!heldTicks.isEmpty()) {
                    settle(0, 0);
                }
            } finally {
                pipeline.close();
                f.close();
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void theSchedulerKeepsItsLimitsAndStarvesNoOneUnderAnySequence(String backend) {
        ActionSequenceCheck.<Subject>named("the scheduler keeps its limits and starves no one [" + backend + "]")
                .config(PropertyConfig.of(8, 80))
                .subject(() -> {
                    try {
                        return new Subject(backend, Files.createTempDirectory(tempDir, "try"));
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                })
                .action(6, r -> {
                    int tenant = r.nextInt(TENANTS);
                    int count = 1 + r.nextInt(6);
                    int sinks = 1 + r.nextInt(2);
                    return Action.of("ingest t" + tenant + " " + count + " hooks x" + sinks + " sinks",
                            s -> s.ingest(tenant, count, sinks));
                })
                .action(6, r -> {
                    int mix = r.nextInt(1000);
                    return Action.of("tick answering (mix " + mix + ")", s -> s.tick(false, mix));
                })
                .action(3, r -> Action.of("tick holding", s -> s.tick(true, 0)))
                .action(3, r -> {
                    int which = r.nextInt(8);
                    int mix = r.nextInt(1000);
                    return Action.of("settle held tick #" + which + " (mix " + mix + ")", s -> s.settle(which, mix));
                })
                .action(4, r -> {
                    long ms = 1 + r.nextInt(2500);
                    return Action.of("advance " + ms + "ms", s -> s.advance(ms));
                })
                .action(2, r -> {
                    int tenant = r.nextInt(TENANTS);
                    int weight = 1 + r.nextInt(4);
                    int limit = r.nextInt(LIMITS.length);
                    int rate = r.nextInt(RATES.length);
                    return Action.of("policy t" + tenant + ": weight " + weight + ", in flight " + LIMITS[limit]
                            + ", rate " + RATES[rate], s -> s.policy(tenant, weight, limit, rate));
                })
                .action(1, r -> Action.of("invalidate every policy", Subject::invalidateAll))
                .invariant(Subject::check)
                .run();
    }
}

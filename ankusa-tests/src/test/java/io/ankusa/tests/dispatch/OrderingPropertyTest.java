package io.ankusa.tests.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.api.Hook;
import io.ankusa.api.PurgeKind;
import io.ankusa.dispatch.Pipeline;
import io.ankusa.dispatch.Replayer;
import io.ankusa.dispatch.sink.Delivery;
import io.ankusa.dispatch.sink.OrderingPolicy;
import io.ankusa.dispatch.sink.RetryPolicy;
import io.ankusa.dispatch.sink.SinkOutcome;
import io.ankusa.queue.ledger.DueRow;
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
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Ordering keys under random sequences of ingest (ordered and unordered hooks, one or two sinks),
 * ticks with mixed outcomes, clock moves, a crash with rows in flight and recovery, purge, replay,
 * and a change of the ordering policy (block, or skip a head after two attempts): after every step
 * the counters equal a fold of the families, every due row has its marker, every ordered row has
 * its {@code ?O} key and no {@code ?O} key is left without one; no tick attempts two deliveries of
 * one (tenant, sink, key); and every attempt of an ordered delivery is of its key's head in ingest
 * order, unless the delivery was replayed out of order.
 *
 * <p>Beside the tenants with ordering keys, two tenants of equal weight ({@code f0}, {@code f1})
 * always have a backlog of unordered hooks, larger than a turn can take. Whatever the ordered keys
 * do, every tick claims its whole budget ({@code min(rowsPerTick, concurrency)}: a key waiting on
 * its head costs no tick time), and over a run of {@value #RUN_TICKS} ticks of one pipeline the two
 * backlogged tenants' deliveries differ by at most two turns' quantum (deficit round-robin gives
 * equal weights equal turns; one may be a turn ahead, and a turn may be cut by the tick's end).
 */
class OrderingPropertyTest {

    @TempDir
    Path tempDir;

    /** Never gives up by itself: only a dead outcome or the ordering policy ends a delivery unsent. */
    private static final RetryPolicy PATIENT = RetryPolicy.builder()
            .schedule(List.of(Duration.ofMillis(500), Duration.ofSeconds(2))).maxAttempts(10_000).jitter(0.2).build();

    private static final int SKIP_AFTER = 2;
    private static final int ROWS_PER_TICK = 9;
    private static final int CONCURRENCY = 6;
    /** Rows a weight-1 tenant may take a turn (the scheduler's quantum). */
    private static final int QUANTUM = 16;
    /** The backlogged tenants keep more due rows than two turns take, so they never drain. */
    private static final int BACKLOG = 3 * QUANTUM;
    private static final List<String> BACKLOGGED = List.of("f0", "f1");
    /** Ticks of the "run of ticks" step: enough rows for two turns' quantum to be a tight bound. */
    private static final int RUN_TICKS = 40;

    /** The subject: a fixture, its pipeline, and the model of every key's order. */
    static final class Subject implements AutoCloseable {
        private final DispatchFixture f;
        private Pipeline pipeline;
        private boolean skipping;
        private int hooks;
        private int mix;
        /** (tenant/sink/key) → hook ids not yet delivered or dead, in ingest order. */
        private final Map<String, List<String>> waiting = new HashMap<>();
        /** hook id → its group per sink. */
        private final Map<String, String> keyOf = new HashMap<>();
        /** Deliveries (hook/sink) dead-lettered and not purged, by tenant. */
        private final Map<String, Set<String>> dead = new HashMap<>();
        /** Deliveries (hook/sink) replayed from the dead letters: delivered out of order on purpose. */
        private final Set<String> replayed = new HashSet<>();
        private final Set<String> tenants = new HashSet<>();
        /** Groups attempted in the tick under way. */
        private final Set<String> attemptedThisTick = new HashSet<>();
        private final List<String> violations = new ArrayList<>();
        /** Backlogged tenant → hooks ingested and not yet attempted (the sink delivers them at once). */
        private final Map<String, Integer> backlog = new HashMap<>();
        /** Backlogged tenant → deliveries since the current run of ticks began. */
        private final Map<String, Integer> share = new HashMap<>();

        Subject(String backend, Path dir) {
            this.f = DispatchFixture.open(backend, dir);
            this.pipeline = newPipeline();
        }

        private Pipeline newPipeline() {
            OrderingPolicy policy = skipping ? OrderingPolicy.skipAfter(SKIP_AFTER) : OrderingPolicy.block();
            return f.pipeline(this::answer, b -> b.retryPolicy(PATIENT).orderingPolicy(policy)
                    .random(new SplittableRandom(3)).rowsPerTick(ROWS_PER_TICK).concurrency(CONCURRENCY));
        }

        private static String group(String tenant, int sink, String key) {
            return tenant + "/" + sink + "/" + key;
        }

        private CompletableFuture<SinkOutcome> answer(Delivery d) {
            if (BACKLOGGED.contains(d.tenantId())) {
                synchronized (this) {
                    backlog.merge(d.tenantId(), -1, Integer::sum);
                    share.merge(d.tenantId(), 1, Integer::sum);
                }
                return CompletableFuture.completedFuture(SinkOutcome.delivered());
            }
            int h = Math.floorMod((d.hookId() + "/" + d.sink() + "/" + d.attempt() + "/" + mix).hashCode(), 10);
            SinkOutcome outcome = h < 5 ? SinkOutcome.delivered() : h < 9 ? SinkOutcome.retry("HTTP 500")
                    : SinkOutcome.dead("HTTP 400");
            synchronized (this) {
                String key = keyOf.get(d.hookId());
                String delivery = d.hookId() + "/" + d.sink();
                if (key != null && !replayed.contains(delivery)) {
                    String g = group(d.tenantId(), d.sink(), key);
                    if (!attemptedThisTick.add(g)) {
                        violations.add("two deliveries of " + g + " in one tick: " + delivery);
                    }
                    List<String> order = waiting.get(g);
                    if (order.isEmpty() || !order.get(0).equals(d.hookId())) {
                        violations.add(delivery + " attempted while the head of " + g + " was " + order);
                    }
                    boolean ends = outcome instanceof SinkOutcome.Delivered || outcome instanceof SinkOutcome.Dead
                            || (skipping && d.attempt() >= SKIP_AFTER);
                    if (ends) {
                        order.remove(d.hookId());
                    }
                }
                if (!(outcome instanceof SinkOutcome.Delivered) && (outcome instanceof SinkOutcome.Dead
                        || (key != null && !replayed.contains(delivery) && skipping && d.attempt() >= SKIP_AFTER))) {
                    dead.computeIfAbsent(d.tenantId(), t -> new HashSet<>()).add(delivery);
                }
            }
            return CompletableFuture.completedFuture(outcome);
        }

        synchronized void ingest(int tenant, int sinks, int key) {
            String id = "h" + hooks++;
            String t = "t" + tenant;
            Hook.Builder b = Hook.builder().id(id).sourceId("s").tenantId(t).payload("{}");
            b.sinks(sinks == 1 ? new int[] {0} : new int[] {0, 1});
            if (key >= 0) {
                String k = "k" + key;
                b.orderingKey(k);
                keyOf.put(id, k);
                for (int sink = 0; sink < sinks; sink++) {
                    waiting.computeIfAbsent(group(t, sink, k), g -> new ArrayList<>()).add(id);
                }
            }
            f.ingest(b.build());
            tenants.add(t);
        }

        void tick(int newMix) {
            topUpBacklog();
            synchronized (this) {
                mix = newMix;
                attemptedThisTick.clear();
            }
            int claimed = DispatchFixture.await(pipeline.tick()).claimed();
            synchronized (this) {
                int budget = Math.min(ROWS_PER_TICK, CONCURRENCY);
                if (claimed < budget) {
                    violations.add("a tick claimed " + claimed + " of " + budget + " while " + BACKLOGGED
                            + " had a backlog");
                }
            }
        }

        /** {@value #RUN_TICKS} ticks, the clock moving between them; the backlogged tenants' shares compared. */
        void tickRun(int newMix) {
            synchronized (this) {
                share.clear();
            }
            for (int i = 0; i < RUN_TICKS; i++) {
                tick(newMix + i);
                advance(250);
            }
            synchronized (this) {
                int f0 = share.getOrDefault("f0", 0);
                int f1 = share.getOrDefault("f1", 0);
                if (Math.abs(f0 - f1) > 2 * QUANTUM) {
                    violations.add("equal weights, unequal shares over " + RUN_TICKS + " ticks: f0 " + f0 + ", f1 "
                            + f1);
                }
            }
        }

        /** Ingests unordered hooks for the backlogged tenants until each has {@link #BACKLOG} due. */
        private void topUpBacklog() {
            List<CompletableFuture<?>> receipts = new ArrayList<>();
            synchronized (this) {
                for (String t : BACKLOGGED) {
                    for (int n = backlog.getOrDefault(t, 0); n < BACKLOG; n++) {
                        receipts.add(f.queue().ingest(Hook.builder().id("b" + hooks++).sourceId("s").tenantId(t)
                                .payload("{}").sinks(0).build()));
                        backlog.merge(t, 1, Integer::sum);
                    }
                }
            }
            receipts.forEach(CompletableFuture::join);
        }

        void advance(long ms) {
            f.clock().advance(ms);
        }

        /** Claims up to {@code rows} due rows of the tenant behind the pipeline's back and dies: recovery puts them back. */
        void crashWithRowsInFlight(int tenant, int rows) {
            pipeline.close();
            if (tenants.contains("t" + tenant)) {
                long ord = f.ord("t" + tenant);
                List<DueRow> due = f.ledger().dueForTenant(ord, f.now(), 0, rows, Long.MAX_VALUE);
                if (!due.isEmpty()) {
                    f.ledger().claim(ord, due);
                }
            }
            f.reopen();
            pipeline = newPipeline();
        }

        synchronized void purge(int tenant) {
            String t = "t" + tenant;
            f.queue().purgeTenant(t, Set.of(PurgeKind.PENDING, PurgeKind.DEAD));
            waiting.forEach((g, ids) -> {
                if (g.startsWith(t + "/")) {
                    ids.clear();
                }
            });
            dead.remove(t);
        }

        synchronized void replay(int tenant) {
            String t = "t" + tenant;
            // Every dead delivery of the tenant comes back, unordered.
            Set<String> revived = dead.getOrDefault(t, Set.of());
            assertThat(Replayer.of(f.queue()).replayTenant(t).revived()).isEqualTo(revived.size());
            replayed.addAll(revived);
            dead.remove(t);
        }

        void changePolicy() {
            pipeline.close();
            skipping = !skipping;
            pipeline = newPipeline();
        }

        void reopen() {
            pipeline.close();
            f.reopen();
            pipeline = newPipeline();
        }

        void check() {
            f.assertConsistent();
            synchronized (this) {
                assertThat(violations).as("order violations").isEmpty();
            }
        }

        @Override
        public void close() {
            pipeline.close();
            f.close();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void orderHoldsAndCountersEqualAFoldAfterAnySequence(String backend) {
        ActionSequenceCheck.<Subject>named("ordering holds after any sequence [" + backend + "]")
                .config(PropertyConfig.of(6, 80))
                .subject(() -> {
                    try {
                        return new Subject(backend, Files.createTempDirectory(tempDir, "try"));
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                })
                .action(8, r -> {
                    int tenant = r.nextInt(3);
                    int sinks = 1 + r.nextInt(2);
                    int key = r.nextInt(4) - 1;
                    return Action.of("ingest t" + tenant + " x" + sinks + (key < 0 ? "" : " key k" + key),
                            s -> s.ingest(tenant, sinks, key));
                })
                .action(8, r -> {
                    int mix = r.nextInt(1000);
                    return Action.of("tick (mix " + mix + ")", s -> s.tick(mix));
                })
                .action(1, r -> {
                    int mix = r.nextInt(1000);
                    return Action.of("a run of " + RUN_TICKS + " ticks (mix " + mix + ")", s -> s.tickRun(mix));
                })
                .action(4, r -> {
                    long ms = 1 + r.nextInt(3000);
                    return Action.of("advance " + ms + "ms", s -> s.advance(ms));
                })
                .action(1, r -> {
                    int tenant = r.nextInt(3);
                    int rows = 1 + r.nextInt(4);
                    return Action.of("crash with " + rows + " rows of t" + tenant + " in flight, recover",
                            s -> s.crashWithRowsInFlight(tenant, rows));
                })
                .action(1, r -> {
                    int tenant = r.nextInt(3);
                    return Action.of("purge t" + tenant, s -> s.purge(tenant));
                })
                .action(1, r -> {
                    int tenant = r.nextInt(3);
                    return Action.of("replay t" + tenant, s -> s.replay(tenant));
                })
                .action(1, r -> Action.of("change the ordering policy", Subject::changePolicy))
                .action(1, r -> Action.of("close and reopen", Subject::reopen))
                .invariant(Subject::check)
                .run();
    }
}

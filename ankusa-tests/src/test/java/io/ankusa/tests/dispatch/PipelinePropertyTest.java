package io.ankusa.tests.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.api.Hook;
import io.ankusa.dispatch.Pipeline;
import io.ankusa.dispatch.Replayer;
import io.ankusa.dispatch.report.TickReport;
import io.ankusa.dispatch.sink.Delivery;
import io.ankusa.dispatch.sink.RetryPolicy;
import io.ankusa.dispatch.sink.SinkOutcome;
import io.ankusa.keys.ColumnFamilies;
import io.ankusa.keys.HookKey;
import io.ankusa.store.Durability;
import io.ankusa.store.KeyRange;
import io.ankusa.store.Scan;
import io.ankusa.store.WriteBatch;
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
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The pipeline end to end under random sequences of ingest, ticks with mixed sink outcomes
 * (delivered, retry, retry with a hint, dead, a throwing sink), clock moves, replays, lost hooks
 * and close-and-reopen: after every step the counters equal a fold of the families, every due row
 * has its marker, nothing is left inflight once a tick's settles are done, and no hook was ever
 * delivered (as delivered) more than once per sink.
 */
class PipelinePropertyTest {

    @TempDir
    Path tempDir;

    /** Retries quickly so the sequences reach the DLQ: 0.5 s, then 2 s; 4 attempts. */
    private static final RetryPolicy QUICK = RetryPolicy.builder()
            .schedule(List.of(Duration.ofMillis(500), Duration.ofSeconds(2))).maxAttempts(4).jitter(0.2).build();

    /** The subject: a fixture, its pipeline, and what the sink has answered so far. */
    static final class Subject implements AutoCloseable {
        private final DispatchFixture f;
        private Pipeline pipeline;
        private int hooks;
        /** Outcome per delivery: by a hash of (hook, sink, attempt) and the current mix. */
        private int mix;
        private final Map<String, Integer> deliveredTimes = new HashMap<>();

        Subject(String backend, Path dir) {
            this.f = DispatchFixture.open(backend, dir);
            this.pipeline = newPipeline();
        }

        private Pipeline newPipeline() {
            return f.pipeline(this::answer, b -> b.retryPolicy(QUICK).random(new SplittableRandom(3)).rowsPerTick(7)
                    .concurrency(5));
        }

        private CompletableFuture<SinkOutcome> answer(Delivery d) {
            int h = Math.floorMod((d.hookId() + "/" + d.sink() + "/" + d.attempt() + "/" + mix).hashCode(), 10);
            SinkOutcome outcome;
            if (h < 4) {
                outcome = SinkOutcome.delivered();
            } else if (h < 6) {
                outcome = SinkOutcome.retry("HTTP 500");
            } else if (h < 7) {
                outcome = SinkOutcome.retryAfter(Duration.ofMillis(1500), "HTTP 429");
            } else if (h < 8) {
                outcome = SinkOutcome.dead("HTTP 410");
            } else if (h < 9) {
                throw new IllegalStateException("sink bug");
            } else {
                return CompletableFuture.failedFuture(new IllegalStateException("sink failed its stage"));
            }
            if (outcome instanceof SinkOutcome.Delivered) {
                synchronized (deliveredTimes) {
                    deliveredTimes.merge(d.hookId() + "/" + d.sink(), 1, Integer::sum);
                }
            }
            return CompletableFuture.completedFuture(outcome);
        }

        void ingest(int tenant, int sinks) {
            int[] numbers = new int[sinks];
            for (int i = 0; i < sinks; i++) {
                numbers[i] = i * 3;
            }
            f.ingest(Hook.builder().id("h" + hooks++).sourceId("s").tenantId("t" + tenant).payload("{}").sinks(numbers).build());
        }

        void tick(int newMix) {
            mix = newMix;
            TickReport report = DispatchFixture.await(pipeline.tick());
            assertThat(report.delivered() + report.retried() + report.dead()).isEqualTo(report.claimed());
            assertThat(f.queue().stats().inflight()).as("inflight once the tick's settles are done").isZero();
        }

        void advance(long ms) {
            f.clock().advance(ms);
        }

        void replayTenant(int tenant) {
            Replayer.of(f.queue()).replayTenant("t" + tenant);
        }

        void replayNewest(int limit) {
            Replayer.of(f.queue()).replayPage(limit);
        }

        void loseHook(int k) {
            List<byte[]> keys = new ArrayList<>();
            try (Scan scan = f.store().scan(ColumnFamilies.HOOKS, KeyRange.of(HookKey.FAMILY.between().from(),
                    HookKey.FAMILY.between().to()))) {
                scan.forEachRemaining(kv -> keys.add(kv.key()));
            }
            if (!keys.isEmpty()) {
                f.store().commit(new WriteBatch().delete(ColumnFamilies.HOOKS, keys.get(k % keys.size())), Durability.SYNC);
            }
        }

        void reopen() {
            pipeline.close();
            f.reopen();
            pipeline = newPipeline();
        }

        void check() {
            f.assertConsistent();
            synchronized (deliveredTimes) {
                assertThat(deliveredTimes.values()).as("deliveries answered 'delivered' more than once").allMatch(n -> n == 1);
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
    void countersEqualAFoldAfterAnySequenceOfPipelineTicks(String backend) {
        ActionSequenceCheck.<Subject>named("counters equal a fold after any sequence of pipeline ticks [" + backend + "]")
                .config(PropertyConfig.of(6, 60))
                .subject(() -> {
                    try {
                        return new Subject(backend, Files.createTempDirectory(tempDir, "try"));
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                })
                .action(6, r -> {
                    int tenant = r.nextInt(4);
                    int sinks = 1 + r.nextInt(3);
                    return Action.of("ingest t" + tenant + " x" + sinks, s -> s.ingest(tenant, sinks));
                })
                .action(6, r -> {
                    int mix = r.nextInt(1000);
                    return Action.of("tick (mix " + mix + ")", s -> s.tick(mix));
                })
                .action(4, r -> {
                    long ms = 1 + r.nextInt(3000);
                    return Action.of("advance " + ms + "ms", s -> s.advance(ms));
                })
                .action(1, r -> {
                    int tenant = r.nextInt(4);
                    return Action.of("replay tenant t" + tenant, s -> s.replayTenant(tenant));
                })
                .action(1, r -> {
                    int limit = 1 + r.nextInt(4);
                    return Action.of("replay the newest " + limit, s -> s.replayNewest(limit));
                })
                .action(1, r -> {
                    int k = r.nextInt(8);
                    return Action.of("lose hook #" + k, s -> s.loseHook(k));
                })
                .action(1, r -> Action.of("close and reopen", Subject::reopen))
                .invariant(Subject::check)
                .run();
    }
}

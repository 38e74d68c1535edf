package io.ankusa.tests.queue;

import io.ankusa.api.PurgeKind;
import io.ankusa.testkit.property.Action;
import io.ankusa.testkit.property.ActionSequenceCheck;
import io.ankusa.testkit.property.PropertyConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The structural guard of TEN-1 §4: whatever sequence of transitions runs, through whichever op
 * builder, every tenant's eight counters and the aggregate equal a fold of the families read
 * straight from the store — checked after every step, on both backends.
 */
class CounterFoldPropertyTest {

    @TempDir
    Path tempDir;

    private TransitionDriver fresh(String backend) {
        try {
            return new TransitionDriver(backend, Files.createTempDirectory(tempDir, "try"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void countersEqualAFoldAfterAnySequenceOfTransitions(String backend) {
        ActionSequenceCheck.<TransitionDriver>named("counters equal a fold after any sequence of transitions [" + backend + "]")
                .config(PropertyConfig.of(12, 80))
                .subject(() -> fresh(backend))
                .action(8, r -> {
                    int tenant = r.nextInt(5) - 1;
                    int sinks = 1 + r.nextInt(3);
                    int bytes = r.nextInt(40);
                    return Action.of("ingest t" + tenant + " x" + sinks + " " + bytes + "B", d -> d.ingest(tenant, sinks, bytes));
                })
                .action(6, r -> {
                    int k = r.nextInt(8);
                    int n = 1 + r.nextInt(4);
                    return Action.of("claim " + n + " of active #" + k, d -> d.claim(k, n));
                })
                .action(3, r -> {
                    int k = r.nextInt(8);
                    return Action.of("deliver #" + k, d -> d.deliver(k));
                })
                .action(3, r -> {
                    int k = r.nextInt(8);
                    long delay = r.nextInt(5000) - 1000;
                    return Action.of("retry #" + k + " in " + delay + "ms", d -> d.retry(k, delay));
                })
                .action(3, r -> {
                    int k = r.nextInt(8);
                    return Action.of("dead-letter #" + k, d -> d.deadLetter(k));
                })
                .action(3, r -> {
                    int k = r.nextInt(8);
                    int n = 1 + r.nextInt(3);
                    return Action.of("revive " + n + " of dead tenant #" + k, d -> d.revive(k, n));
                })
                .action(1, r -> Action.of("recover inflight", TransitionDriver::recover))
                .action(1, r -> Action.of("close and reopen", TransitionDriver::reopen))
                .action(2, r -> {
                    int k = r.nextInt(8);
                    int sink = 1 + r.nextInt(30);
                    return Action.of("expand hook #" + k + " to sink " + sink, d -> d.expand(k, sink));
                })
                .action(1, r -> {
                    int k = r.nextInt(8);
                    int n = 1 + r.nextInt(3);
                    return Action.of("purge " + n + " due of tenant #" + k, d -> d.purgeDue(k, n));
                })
                .action(1, r -> {
                    int k = r.nextInt(8);
                    int n = 1 + r.nextInt(3);
                    return Action.of("purge " + n + " dead of tenant #" + k, d -> d.purgeDead(k, n));
                })
                .action(2, r -> {
                    int k = r.nextInt(8);
                    boolean settle = r.nextBoolean();
                    return Action.of((settle ? "settle" : "drop") + " archive #" + k, d -> d.archive(k, settle));
                })
                .action(1, r -> {
                    int k = r.nextInt(8);
                    return Action.of("lose hook #" + k, d -> d.loseHook(k));
                })
                .action(1, r -> {
                    int k = r.nextInt(8);
                    return Action.of("drop orphan #" + k, d -> d.dropOrphan(k));
                })
                // The quarantine: a damaged hook's rows are moved aside by the next claim.
                .action(1, r -> {
                    int k = r.nextInt(8);
                    return Action.of("damage hook #" + k, d -> d.damageHook(k));
                })
                .action(1, r -> {
                    int k = r.nextInt(8);
                    return Action.of("release quarantine of tenant #" + k, d -> d.releaseQuarantine(k));
                })
                .action(1, r -> {
                    int k = r.nextInt(8);
                    return Action.of("purge quarantine of tenant #" + k, d -> d.purgeQuarantine(k));
                })
                .action(2, r -> {
                    long ms = 1 + r.nextInt(3000);
                    return Action.of("tick " + ms + "ms", d -> d.tick(ms));
                })
                // The operator side: the public purge, archive compaction, reclaim and dedupe.
                .action(1, r -> {
                    int k = r.nextInt(8);
                    Set<PurgeKind> kinds = switch (r.nextInt(3)) {
                        case 0 -> EnumSet.of(PurgeKind.PENDING);
                        case 1 -> EnumSet.of(PurgeKind.DEAD);
                        default -> EnumSet.allOf(PurgeKind.class);
                    };
                    return Action.of("purgeTenant #" + k + " " + kinds, d -> d.purgeTenant(k, kinds));
                })
                .action(2, r -> {
                    int n = 1 + r.nextInt(4);
                    boolean failing = r.nextBoolean();
                    return Action.of("compact archive " + n + (failing ? " (archiver failing on seq 2 mod 3)" : ""),
                            d -> d.compactArchive(n, failing));
                })
                .action(2, r -> {
                    int n = 1 + r.nextInt(5);
                    return Action.of("reclaim " + n, d -> d.reclaim(n));
                })
                .action(1, r -> Action.of("reclaim all", TransitionDriver::reclaimAll))
                .action(3, r -> {
                    int tenant = r.nextInt(3) - 1;
                    int sinks = 1 + r.nextInt(2);
                    String key = "key" + r.nextInt(4);
                    return Action.of("ingest t" + tenant + " x" + sinks + " with " + key, d -> d.ingestKeyed(tenant, sinks, key));
                })
                .action(1, r -> {
                    int n = 1 + r.nextInt(3);
                    return Action.of("sweep dedupe " + n, d -> d.sweepDedupe(n));
                })
                // Fan-out by event type: endpoints come and go between the hooks that fan out to them.
                .action(3, TransitionDriver::typedIngest)
                .action(2, TransitionDriver::endpointRegistration)
                .action(1, TransitionDriver::endpointRemoval)
                .invariant(d -> {
                    IndexFold.of(d.queue().store()).assertCountersMatch(d.queue().store());
                    d.assertNoOwedHookReclaimed();
                })
                .run();
    }
}

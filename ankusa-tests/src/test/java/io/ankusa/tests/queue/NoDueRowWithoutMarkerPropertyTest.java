package io.ankusa.tests.queue;

import io.ankusa.testkit.property.Action;
import io.ankusa.testkit.property.ActionSequenceCheck;
import io.ankusa.testkit.property.PropertyConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Spec §5's invariant: every due row has its active marker, whatever writes due rows (ingest,
 * retry, revive, recovery, expansion) and however often the pipeline's delete-then-verify
 * cleanup runs in between.
 */
class NoDueRowWithoutMarkerPropertyTest {

    @TempDir
    Path tempDir;

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void noDueRowWithoutAMarker(String backend) {
        ActionSequenceCheck.<TransitionDriver>named("no due row without a marker [" + backend + "]")
                .config(PropertyConfig.of(10, 80))
                .subject(() -> {
                    try {
                        return new TransitionDriver(backend, Files.createTempDirectory(tempDir, "try"));
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                })
                .action(6, r -> {
                    int tenant = r.nextInt(4);
                    int sinks = 1 + r.nextInt(2);
                    return Action.of("ingest t" + tenant + " x" + sinks, d -> d.ingest(tenant, sinks, 8));
                })
                .action(5, r -> {
                    int k = r.nextInt(8);
                    int n = 1 + r.nextInt(4);
                    return Action.of("claim " + n + " of active #" + k, d -> d.claim(k, n));
                })
                .action(5, r -> Action.of("marker cleanup", TransitionDriver::cleanMarkers))
                .action(2, r -> {
                    int k = r.nextInt(8);
                    return Action.of("deliver #" + k, d -> d.deliver(k));
                })
                .action(3, r -> {
                    int k = r.nextInt(8);
                    long delay = r.nextInt(6000) - 2000;
                    return Action.of("retry #" + k + " in " + delay + "ms", d -> d.retry(k, delay));
                })
                .action(1, r -> {
                    int k = r.nextInt(8);
                    return Action.of("dead-letter #" + k, d -> d.deadLetter(k));
                })
                .action(1, r -> {
                    int k = r.nextInt(8);
                    return Action.of("revive dead tenant #" + k, d -> d.revive(k, 2));
                })
                .action(1, r -> Action.of("recover inflight", TransitionDriver::recover))
                .action(1, r -> {
                    int k = r.nextInt(8);
                    return Action.of("expand hook #" + k, d -> d.expand(k, 99));
                })
                .action(1, r -> {
                    int k = r.nextInt(8);
                    return Action.of("purge due of tenant #" + k, d -> d.purgeDue(k, 2));
                })
                .action(3, r -> {
                    long ms = 1 + r.nextInt(2500);
                    return Action.of("tick " + ms + "ms", d -> d.tick(ms));
                })
                // Fan-out by event type: endpoints come and go between the hooks that fan out to them.
                .action(3, TransitionDriver::typedIngest)
                .action(2, TransitionDriver::endpointRegistration)
                .action(1, TransitionDriver::endpointRemoval)
                .invariant(d -> IndexFold.of(d.queue().store()).assertEveryDueRowHasAMarker())
                .run();
    }
}

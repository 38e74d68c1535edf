package io.ankusa.dispatch;

import static io.ankusa.tests.queue.QueueUnderTest.hook;
import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.dispatch.report.Gauges;
import io.ankusa.dispatch.report.TenantPending;
import io.ankusa.queue.ledger.Claim;
import io.ankusa.queue.ledger.DeliveryLedger;
import io.ankusa.tests.queue.QueueUnderTest;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** {@link QueueMonitor}: the gauges of a queue with no pipeline and no sink. */
class QueueMonitorTest {

    @TempDir
    Path dir;

    @ParameterizedTest(name = "[{0}]")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void measuresTheGaugesWithoutAPipeline(String backend) {
        try (QueueUnderTest q = QueueUnderTest.open(backend, dir)) {
            q.ingest(hook("a-1", "a", 0));
            q.ingest(hook("a-2", "a", 0));
            q.ingest(hook("b-1", "b", 0, 1));
            DeliveryLedger ledger = q.ledger();
            long b = q.ord("b").orElseThrow();
            Claim claim = ledger.claim(b, ledger.dueForTenant(b, q.clock().millis(), 0, 1, Long.MAX_VALUE));
            ledger.dead(claim.claimed().get(0), "HTTP 410");
            q.clock().advance(7_000);

            Gauges gauges = QueueMonitor.of(q.queue()).gauges();

            assertThat(gauges.measuredAt().toEpochMilli()).isEqualTo(q.clock().millis());
            assertThat(gauges.pending()).isEqualTo(3);
            assertThat(gauges.dead()).isEqualTo(1);
            assertThat(gauges.inflight()).isZero();
            assertThat(gauges.tenants()).isEqualTo(2);
            assertThat(gauges.oldestDueAge()).isEqualTo(Optional.of(Duration.ofSeconds(7)));
            assertThat(gauges.topTenantsByPending()).containsExactly(new TenantPending("a", 2), new TenantPending("b", 1));
            assertThat(gauges.dispatchActiveTenants()).as("no pipeline, no tick").isZero();
        }
    }

    @ParameterizedTest(name = "[{0}]")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void drainedCompletesOnceNothingIsLeftToDeliver(String backend) throws Exception {
        try (QueueUnderTest q = QueueUnderTest.open(backend, dir)) {
            QueueMonitor monitor = QueueMonitor.of(q.queue());
            assertThat(monitor.drained()).as("an empty queue is drained").succeedsWithin(Duration.ofSeconds(30));
            q.ingest(hook("a-1", "a", 0));
            java.util.concurrent.CompletableFuture<io.ankusa.api.QueueStats> drained = monitor.drained();
            assertThat(monitor.awaitDrained(Duration.ofMillis(1))).isFalse();
            assertThat(drained).isNotDone();

            DeliveryLedger ledger = q.ledger();
            long a = q.ord("a").orElseThrow();
            Claim claim = ledger.claim(a, ledger.dueForTenant(a, q.clock().millis(), 0, 1, Long.MAX_VALUE));
            assertThat(drained).as("an inflight row is not drained").isNotDone();
            ledger.dead(claim.claimed().get(0), "http 400");

            assertThat(drained).succeedsWithin(Duration.ofSeconds(30))
                    .satisfies(totals -> assertThat(totals.dead()).as("dead letters do not hold it up").isEqualTo(1));
            assertThat(monitor.awaitDrained(Duration.ofSeconds(30))).isTrue();
        }
    }
}

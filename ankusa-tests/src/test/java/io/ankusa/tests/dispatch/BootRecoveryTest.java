package io.ankusa.tests.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.api.QueueStats;
import io.ankusa.dispatch.Pipeline;
import io.ankusa.dispatch.report.TickReport;
import io.ankusa.dispatch.sink.Delivery;
import io.ankusa.dispatch.sink.SinkOutcome;
import io.ankusa.queue.ledger.Claim;
import io.ankusa.queue.ledger.DeliveryLedger;
import io.ankusa.queue.ledger.DueKind;
import io.ankusa.queue.ledger.DueRow;
import io.ankusa.testkit.ScriptedSink;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Boot recovery: {@code Queue.open} moves every inflight row left by the last run back to due
 * before it returns, so before any pipeline can exist over it (a pipeline needs the open queue).
 */
class BootRecoveryTest {

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void anInflightRowAtOpenIsDueAgainKind0WithItsCountersAndIsDeliveredAgain(String backend) {
        try (DispatchFixture f = DispatchFixture.open(backend, dir)) {
            f.ingest("a", "t", 0, 1);
            f.ingest("b", "t", 0);
            f.ingest("c", "u", 0);
            long t = f.ord("t");
            long u = f.ord("u");
            DeliveryLedger ledger = f.ledger();
            // A first-attempt row and a retry row are claimed: a tick's claim, then the node dies.
            Claim first = ledger.claim(u, ledger.dueForTenant(u, f.now(), 0, 10, Long.MAX_VALUE));
            ledger.retry(first.claimed().get(0), f.now(), "HTTP 503");
            ledger.claim(u, ledger.dueForTenant(u, f.now(), 0, 10, Long.MAX_VALUE));
            ledger.claim(t, ledger.dueForTenant(t, f.now(), 0, 2, Long.MAX_VALUE));
            long size = f.queue().stats().bytes();
            assertThat(f.queue().stats()).isEqualTo(new QueueStats(1, 0, 3, 0, size, 0));

            f.clock().advance(5_000);
            f.reopen();

            assertThat(f.queue().stats()).as("every inflight row pending again").isEqualTo(new QueueStats(4, 0, 0, 0, size, 0));
            List<DueRow> due = f.ledger().dueForTenant(t, f.now(), 0, 10, Long.MAX_VALUE);
            due = new java.util.ArrayList<>(due);
            due.addAll(f.ledger().dueForTenant(u, f.now(), 0, 10, Long.MAX_VALUE));
            assertThat(due).hasSize(4).extracting(DueRow::kind).containsOnly(DueKind.FIRST_ATTEMPT);
            assertThat(due).filteredOn(r -> r.at() == f.now()).as("recovered rows are due at the reopen").hasSize(3);
            f.assertConsistent();

            ScriptedSink sink = ScriptedSink.delivering();
            try (Pipeline pipeline = f.pipeline(sink, b -> b)) {
                TickReport tick = DispatchFixture.await(pipeline.tick());
                assertThat(tick.delivered()).isEqualTo(4);
            }
            assertThat(sink.hookIds()).containsExactlyInAnyOrder("a", "a", "b", "c");
            assertThat(sink.seen()).filteredOn(d -> d.hookId().equals("c")).extracting(Delivery::attempt)
                    .as("c failed once before the crash").containsExactly(2);
            assertThat(f.queue().stats()).isEqualTo(new QueueStats(0, 0, 0, 0, 0, 0));
            f.assertConsistent();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aDeliveryUnsettledWhenTheQueueClosesIsDeliveredAgainAfterReopening(String backend) {
        try (DispatchFixture f = DispatchFixture.open(backend, dir)) {
            f.ingest("a", "t", 0);
            CompletableFuture<SinkOutcome> never = new CompletableFuture<>();
            Pipeline pipeline = f.pipeline(d -> never, b -> b);
            pipeline.tick();
            assertThat(f.queue().stats().inflight()).isEqualTo(1);
            // The sink answers only after the queue is gone: its settle fails, the row stays inflight.
            f.reopen();
            never.complete(SinkOutcome.delivered());
            pipeline.close();
            assertThat(f.queue().stats().pending()).isEqualTo(1);

            ScriptedSink sink = ScriptedSink.delivering();
            try (Pipeline again = f.pipeline(sink, b -> b)) {
                assertThat(DispatchFixture.await(again.tick()).delivered()).isEqualTo(1);
            }
            assertThat(sink.hookIds()).containsExactly("a");
            f.assertConsistent();
        }
    }
}

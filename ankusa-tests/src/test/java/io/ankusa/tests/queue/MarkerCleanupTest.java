package io.ankusa.tests.queue;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.keys.ActiveKey;
import io.ankusa.queue.ledger.Claim;
import io.ankusa.queue.ledger.DeliveryLedger;
import io.ankusa.queue.ledger.DueRow;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The delete-then-verify cleanup of spec §5 with a writer's commit placed by hand between the
 * pipeline's steps, at the one point where it matters: after step 1 read "nothing due", before
 * step 2 deletes the marker the writer just put.
 */
class MarkerCleanupTest {

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    @DisplayName("cleanup does not lose a marker to a concurrent enqueue")
    void cleanupDoesNotLoseAMarkerToAConcurrentEnqueue(String backend) {
        try (QueueUnderTest q = QueueUnderTest.open(backend, dir)) {
            DeliveryLedger ledger = q.ledger();
            q.ingest(QueueUnderTest.hook("a", "t", 0));
            q.ingest(QueueUnderTest.hook("b", "t", 1));
            long ord = q.queue().ord("t").orElseThrow();
            long bucket = q.clock().millis() / 1000;
            Claim claim = ledger.claim(ord, ledger.dueForTenant(ord, q.clock().millis(), 0, 10, Long.MAX_VALUE));
            assertThat(claim.claimed()).hasSize(2);
            q.clock().advance(10_000);

            // Step 1: the tenant has nothing due; its scanned marker is stale.
            assertThat(ledger.activeTenants(q.clock().millis(), 10)).extracting(t -> t.bucket()).containsExactly(bucket);
            assertThat(ledger.firstDue(ord)).isEmpty();

            // A writer commits a due row into that second (a retry whose backoff already ran out), with its marker.
            ledger.retry(claim.claimed().get(0), bucket * 1000 + 500, "HTTP 503");

            // Step 2: the stale marker is deleted — and with it, for a moment, the new row's marker.
            ledger.deleteMarkers(ord, List.of(bucket));
            assertThat(IndexFold.of(q.store()).missingMarkers()).containsExactly(new ActiveKey(bucket, ord));

            // Step 3: verify; the row is seen and its marker restored.
            Optional<DueRow> again = ledger.firstDue(ord);
            assertThat(again).isPresent();
            if (again.get().at() / 1000 == bucket) {
                ledger.restoreMarker(ord, bucket);
            }
            IndexFold.of(q.store()).assertEveryDueRowHasAMarker();
            assertThat(ledger.activeTenants(q.clock().millis(), 10)).extracting(t -> t.ord()).containsExactly(ord);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    @DisplayName("a marker of the current second is never deleted")
    void aMarkerOfTheCurrentSecondIsNeverDeleted(String backend) {
        try (QueueUnderTest q = QueueUnderTest.open(backend, dir)) {
            DeliveryLedger ledger = q.ledger();
            q.ingest(QueueUnderTest.hook("a", "t", 0));
            long bucket = q.clock().millis() / 1000;
            ledger.deleteMarkers(1, List.of(bucket, bucket + 1));
            assertThat(ledger.activeTenants(q.clock().millis(), 10)).hasSize(1);
            IndexFold.of(q.store()).assertEveryDueRowHasAMarker();
        }
    }
}

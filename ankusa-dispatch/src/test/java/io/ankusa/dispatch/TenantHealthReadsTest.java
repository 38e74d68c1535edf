package io.ankusa.dispatch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ankusa.dispatch.report.TenantDispatch.Hold;
import io.ankusa.dispatch.report.TenantHealth;
import io.ankusa.dispatch.report.TroubledTenants;
import io.ankusa.dispatch.sink.SinkOutcome;
import io.ankusa.tests.dispatch.DispatchFixture;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Per-tenant health: a tenant's hold, oldest due age and recent failures, and the troubled tenants
 * (top N by oldest due age and by failure rate) at a bounded count.
 */
class TenantHealthReadsTest {

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void theTroubledTenantsNameTheTenantsInTrouble(String backend) {
        try (DispatchFixture f = DispatchFixture.open(backend, dir)) {
            for (int i = 0; i < 6; i++) {
                f.ingest("failing-" + i, "failing", 0);
                f.ingest("flaky-" + i, "flaky", 0);
                f.ingest("fine-" + i, "fine", 0);
            }
            f.ingest("once-0", "once", 0);
            try (Pipeline pipeline = f.pipeline(d -> CompletableFuture.completedFuture(
                    d.tenantId().equals("failing") || d.tenantId().equals("once")
                            || (d.tenantId().equals("flaky") && d.hookId().compareTo("flaky-3") < 0)
                            ? SinkOutcome.retry("503") : SinkOutcome.delivered()), b -> b)) {
                DispatchFixture.await(pipeline.tick());

                TroubledTenants troubled = pipeline.troubledTenants(10);
                assertThat(troubled.byFailureRate()).extracting(TenantHealth::tenantId)
                        .as("highest rate first; a tenant with one attempt does not rank")
                        .containsExactly("failing", "flaky");
                assertThat(troubled.byFailureRate().get(0).failureRate()).isEqualTo(1.0);
                assertThat(troubled.byFailureRate().get(1).failureRate()).isEqualTo(0.5);
                assertThat(pipeline.troubledTenants(1).byFailureRate()).extracting(TenantHealth::tenantId)
                        .containsExactly("failing");

                TenantHealth fine = pipeline.tenantHealth("fine").orElseThrow();
                assertThat(fine).isEqualTo(new TenantHealth("fine", Hold.NONE, Optional.empty(), 6, 0));
                assertThat(pipeline.tenantHealth("nobody")).isEmpty();

                // Two minutes later the failures are history.
                f.clock().advance(Duration.ofMinutes(2).toMillis());
                assertThat(pipeline.troubledTenants(10).byFailureRate()).isEmpty();
                assertThat(pipeline.tenantHealth("failing").orElseThrow().recentAttempts()).isZero();
                assertThatThrownBy(() -> pipeline.troubledTenants(0)).isInstanceOf(IllegalArgumentException.class);
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void theOldestDueTenantsComeOldestFirst(String backend) {
        try (DispatchFixture f = DispatchFixture.open(backend, dir)) {
            f.ingest("a-0", "first", 0);
            f.clock().advance(5_000);
            f.ingest("b-0", "second", 0);
            f.clock().advance(5_000);
            f.ingest("c-0", "third", 0);
            try (Pipeline pipeline = f.pipeline(d -> CompletableFuture.completedFuture(SinkOutcome.delivered()),
                    b -> b.rowsPerTick(1))) {
                // One row a tick: the first tenant's row is delivered, the others are known and due.
                DispatchFixture.await(pipeline.tick());
                TroubledTenants troubled = pipeline.troubledTenants(2);
                assertThat(troubled.byOldestDue()).extracting(TenantHealth::tenantId)
                        .containsExactly("second", "third");
                assertThat(troubled.byOldestDue().get(0).oldestDueAge()).contains(Duration.ofSeconds(5));
            }
        }
    }
}

package io.ankusa.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.api.Rate;
import io.ankusa.api.TenantPolicies;
import io.ankusa.api.TenantPolicy;
import io.ankusa.dispatch.report.DueTenants;
import io.ankusa.dispatch.report.TenantDispatch;
import io.ankusa.dispatch.report.TickReport;
import io.ankusa.dispatch.sink.Delivery;
import io.ankusa.dispatch.sink.SinkOutcome;
import io.ankusa.tests.dispatch.DispatchFixture;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The scheduler's public reads: a tenant's dispatch state and the paged tenants with due work. */
class TenantDispatchReadsTest {

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aTenantsDispatchStateSaysWhetherItIsHeldBackAndWhy(String backend) {
        TenantPolicies policies = TenantPolicies.of(TenantPolicy.DEFAULT, Map.of(
                "busy", TenantPolicy.DEFAULT.withMaxInflight(2).withWeight(3),
                "slow", TenantPolicy.DEFAULT.withDeliveryRate(new Rate(1, 1))));
        try (DispatchFixture f = DispatchFixture.open(backend, dir, b -> b.tenantPolicies(policies))) {
            for (int i = 0; i < 5; i++) {
                f.ingest("busy-" + i, "busy", 0);
                f.ingest("slow-" + i, "slow", 0);
            }
            f.ingest("free-0", "free", 0);
            List<CompletableFuture<SinkOutcome>> held = new ArrayList<>();
            AtomicBoolean holding = new AtomicBoolean(true);
            Function<Delivery, CompletableFuture<SinkOutcome>> answer = d -> {
                if (d.tenantId().equals("busy") && holding.get()) {
                    CompletableFuture<SinkOutcome> later = new CompletableFuture<>();
                    synchronized (held) {
                        held.add(later);
                    }
                    return later;
                }
                return CompletableFuture.completedFuture(SinkOutcome.delivered());
            };
            try (Pipeline pipeline = f.pipeline(answer::apply, b -> b.concurrency(1024))) {
                assertThat(pipeline.tenantDispatch("busy")).as("before any tick").isEmpty();
                CompletionStage<TickReport> first = pipeline.tick();
                DispatchFixture.await(pipeline.tick());

                TenantDispatch busy = pipeline.tenantDispatch("busy").orElseThrow();
                assertThat(busy).isEqualTo(new TenantDispatch("busy", 3, 2, 2, Rate.UNLIMITED, Long.MAX_VALUE,
                        TenantDispatch.Hold.IN_FLIGHT_LIMIT));
                assertThat(pipeline.tenantDispatch("slow")).map(TenantDispatch::hold).contains(TenantDispatch.Hold.DELIVERY_RATE);
                assertThat(pipeline.tenantDispatch("free")).map(TenantDispatch::hold).contains(TenantDispatch.Hold.NONE);
                assertThat(pipeline.tenantDispatch("nobody")).isEmpty();

                DueTenants page = pipeline.dueTenants(0, 1);
                assertThat(page.tenants()).extracting(TenantDispatch::tenantId).containsExactly("busy");
                DueTenants last = pipeline.dueTenants(page.next().orElseThrow(), 1);
                assertThat(last.tenants()).extracting(TenantDispatch::tenantId).containsExactly("slow");
                assertThat(last.next()).as("free drained: not due").isEmpty();

                holding.set(false);
                synchronized (held) {
                    held.forEach(h -> h.complete(SinkOutcome.delivered()));
                }
                DispatchFixture.await(first);
                // Every settle of the first tick is done: slow's one delivery too.
                TenantDispatch slow = pipeline.tenantDispatch("slow").orElseThrow();
                assertThat(slow).isEqualTo(new TenantDispatch("slow", 1, 0, Integer.MAX_VALUE, new Rate(1, 1), 0,
                        TenantDispatch.Hold.DELIVERY_RATE));
                f.clock().advance(1_000);
                DispatchFixture.await(pipeline.tick());
                assertThat(pipeline.tenantDispatch("slow").orElseThrow().tokens()).as("its token of the second, spent").isZero();
                assertThat(pipeline.tenantDispatch("busy").orElseThrow().inflight()).isEqualTo(0);
            }
            f.assertConsistent();
        }
    }
}

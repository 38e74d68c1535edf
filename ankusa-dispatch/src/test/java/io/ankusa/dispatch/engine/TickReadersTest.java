package io.ankusa.dispatch.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.api.EndpointSettings;
import io.ankusa.api.QueueConfig;
import io.ankusa.dispatch.Pipeline;
import io.ankusa.dispatch.report.TickReport;
import io.ankusa.dispatch.sink.SinkOutcome;
import io.ankusa.queue.migration.Migrations;
import io.ankusa.store.Cursor;
import io.ankusa.store.Direction;
import io.ankusa.store.KeyRange;
import io.ankusa.store.Scan;
import io.ankusa.store.Store;
import io.ankusa.tests.dispatch.DispatchFixture;
import io.ankusa.tests.queue.IndexFold;
import io.ankusa.tests.queue.MutableClock;
import io.ankusa.tests.queue.QueueUnderTest;
import io.ankusa.tests.queue.TestQueue;
import io.ankusa.tests.support.ForwardingStore;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A tick's due reads go through two store readers whatever the number of tenants it visits: one
 * for the scheduler's reads and cleanup step 1 (before the claim commits), one for cleanup step 3
 * (after it), each a store {@link Cursor} positioned again per tenant, instead of a scan (an
 * iterator, a read transaction) per tenant and step.
 */
class TickReadersTest {

    private static final int TENANTS = 40;

    @TempDir
    Path dir;

    /** Counts the due family's scans and the cursors opened; cursors are the backend's own. */
    private static final class ReaderCountingStore extends ForwardingStore {
        final AtomicInteger dueScans = new AtomicInteger();
        final AtomicInteger cursors = new AtomicInteger();
        final AtomicInteger seeks = new AtomicInteger();

        ReaderCountingStore(Store delegate) {
            super(delegate);
        }

        @Override
        public Scan scan(String family, KeyRange range, Direction direction) {
            if (range.from().length > 0 && range.from()[0] == 'D') {
                dueScans.incrementAndGet();
            }
            return super.scan(family, range, direction);
        }

        @Override
        public Cursor cursor(String family) {
            cursors.incrementAndGet();
            Cursor cursor = delegate().cursor(family);
            return new Cursor() {
                @Override
                public Scan seek(KeyRange range) {
                    seeks.incrementAndGet();
                    return cursor.seek(range);
                }

                @Override
                public void close() {
                    cursor.close();
                }
            };
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aTickOver40TenantsOpensTwoStoreReadersNotAScanPerTenantAndStep(String backend) {
        MutableClock clock = new MutableClock(QueueUnderTest.EPOCH);
        QueueConfig config = QueueConfig.builder(dir).backend(backend).clock(clock)
                .endpoints(EndpointSettings.DEFAULTS.withMaxConcurrency(Integer.MAX_VALUE)).build();
        ReaderCountingStore[] counting = new ReaderCountingStore[1];
        try (TestQueue queue = TestQueue.open(config, Migrations.NONE, store -> counting[0] = new ReaderCountingStore(store))) {
            for (int t = 0; t < TENANTS; t++) {
                // Two seconds per tenant: the claim empties both, so cleanup deletes both markers
                // (step 2) and checks them (step 3) for every tenant.
                QueueUnderTest.await(queue.ingest(QueueUnderTest.hook("a" + t, "tenant-" + t, 0)));
            }
            clock.advance(1_000);
            for (int t = 0; t < TENANTS; t++) {
                QueueUnderTest.await(queue.ingest(QueueUnderTest.hook("b" + t, "tenant-" + t, 0)));
            }
            clock.advance(2_000);
            ReaderCountingStore store = counting[0];
            try (Pipeline pipeline = Pipeline.builder(queue, d -> CompletableFuture.completedFuture(SinkOutcome.delivered()))
                    .manual()) {
                store.dueScans.set(0);
                store.cursors.set(0);
                store.seeks.set(0);
                TickReport report = DispatchFixture.await(pipeline.tick());
                assertThat(report.claimed()).isEqualTo(2 * TENANTS);
                assertThat(report.tenantsVisited()).isEqualTo(TENANTS);
                assertThat(store.dueScans.get()).as("due scans of their own").isZero();
                assertThat(store.cursors.get()).as("store readers opened by the tick").isEqualTo(2);
                assertThat(store.seeks.get()).as("a seek per tenant for its due rows and one for step 3")
                        .isGreaterThanOrEqualTo(2 * TENANTS);
            }
            assertThat(queue.stats().pending()).isZero();
            IndexFold.of(queue.store()).assertCountersMatch(queue.store());
        }
    }
}

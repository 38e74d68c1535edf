package io.ankusa.tests.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.api.Hook;
import io.ankusa.api.QueueConfig;
import io.ankusa.dispatch.Pipeline;
import io.ankusa.dispatch.sink.SinkOutcome;
import io.ankusa.queue.Queue;
import io.ankusa.tests.queue.MutableClock;
import io.ankusa.tests.queue.QueueUnderTest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Under a steady load with an empty backlog, the RocksDB write-ahead log stays under
 * {@code rocksdb.maxTotalWalBytes}. Before the bound, the families written only now and then
 * ({@code tenants}, for one) never flushed and pinned every log file, so the log grew without end.
 * Driven batch by batch through the public {@link Queue} and {@link Pipeline} (ticks on the test
 * thread), measured in bytes of {@code *.log} files after each batch, not in time.
 */
class BoundedLogGrowthTest {

    private static final long BOUND = 1L << 20;
    private static final int BATCHES = 120;
    private static final int HOOKS_PER_BATCH = 50;
    private static final int TENANTS = 40;
    private static final int PAYLOAD = 2_048;

    @TempDir
    Path dir;

    @Test
    void theRocksdbWriteAheadLogStaysUnderItsBoundUnderASteadyLoad() throws IOException {
        MutableClock clock = new MutableClock(QueueUnderTest.EPOCH);
        QueueConfig config = QueueConfig.builder(dir).backend("rocksdb").clock(clock)
                .storeSetting("rocksdb.maxTotalWalBytes", Long.toString(BOUND)).build();
        Map<String, Long> logSizes = new HashMap<>();
        long largestLive = 0;
        long delivered = 0;
        byte[] body = new byte[PAYLOAD];
        try (Queue queue = Queue.open(config);
                Pipeline pipeline = Pipeline.builder(queue,
                        d -> CompletableFuture.completedFuture(SinkOutcome.delivered())).manual()) {
            int n = 0;
            for (int batch = 0; batch < BATCHES; batch++) {
                List<CompletableFuture<?>> receipts = new ArrayList<>();
                for (int i = 0; i < HOOKS_PER_BATCH; i++, n++) {
                    receipts.add(queue.ingest(Hook.builder().id("h" + n).sourceId("steady")
                            .tenantId("tenant-" + (n % TENANTS)).payload(body).sinks(0).build()));
                }
                receipts.forEach(CompletableFuture::join);
                while (queue.stats().pending() > 0) {
                    delivered += DispatchFixture.await(pipeline.tick()).delivered();
                }
                clock.advance(1_000);
                largestLive = Math.max(largestLive, liveLogBytes(logSizes));
            }
            assertThat(delivered).as("the backlog stayed empty: every hook delivered").isEqualTo(n);
        }
        long written = logSizes.values().stream().mapToLong(Long::longValue).sum();
        assertThat(written).as("log bytes written in all (so an unbounded log would be far past the bound)")
                .isGreaterThan(8 * BOUND);
        assertThat(largestLive).as("largest live log after a batch, of %d bytes written to %d log files", written,
                logSizes.size()).isLessThanOrEqualTo(4 * BOUND);
    }

    /** Bytes of the live {@code *.log} files; records each file's largest size in {@code seen}. */
    private long liveLogBytes(Map<String, Long> seen) throws IOException {
        long live = 0;
        try (Stream<Path> files = Files.list(dir)) {
            for (Path file : files.filter(f -> f.getFileName().toString().endsWith(".log")).toList()) {
                long size;
                try {
                    size = Files.size(file);
                } catch (NoSuchFileException deletedMeanwhile) {
                    continue;
                }
                live += size;
                seen.merge(file.getFileName().toString(), size, Math::max);
            }
        }
        return live;
    }
}

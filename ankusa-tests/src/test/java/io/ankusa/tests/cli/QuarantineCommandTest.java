package io.ankusa.tests.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.api.Receipt;
import io.ankusa.dispatch.Pipeline;
import io.ankusa.dispatch.sink.SinkOutcome;
import io.ankusa.keys.ColumnFamilies;
import io.ankusa.keys.DeadKey;
import io.ankusa.keys.HookKey;
import io.ankusa.store.Durability;
import io.ankusa.store.KeyRange;
import io.ankusa.store.Scan;
import io.ankusa.store.WriteBatch;
import io.ankusa.tests.queue.QueueUnderTest;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The quarantine for operators: {@code ankusa quarantine list|release|purge} and the quarantined
 * row of {@code ankusa stats}; and a dead-letter listing that meets a damaged index is corruption
 * (exit 8), not a silently shorter page.
 */
class QuarantineCommandTest {

    @TempDir
    Path dir;

    private CliRun run(String backend, String... args) {
        return CliRun.against(dir, backend, args);
    }

    /** A store where tenant "acme" has one hook of two sinks quarantined and one delivered hook. */
    private long quarantinedStore(String backend) {
        try (QueueUnderTest q = QueueUnderTest.open(backend, dir)) {
            Receipt damaged = q.ingest(QueueUnderTest.hook("damaged", "acme", 0, 1));
            q.ingest(QueueUnderTest.hook("sound", "acme", 0));
            byte[] garbage = new byte[40];
            Arrays.fill(garbage, (byte) 0xFF);
            q.store().commit(new WriteBatch().put(ColumnFamilies.HOOKS, new HookKey(damaged.seq()).encode(), garbage),
                    Durability.SYNC);
            try (Pipeline pipeline = Pipeline.builder(q.queue(), d -> CompletableFuture.completedFuture(SinkOutcome.delivered()))
                    .manual()) {
                pipeline.tick().toCompletableFuture().join();
            }
            assertThat(q.queue().stats().quarantined()).isEqualTo(2);
            return damaged.seq();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void ankusaQuarantineListsAndStatsCountsTheDeliveriesWhoseHookDoesNotDecode(String backend) {
        long seq = quarantinedStore(backend);

        CliRun list = run(backend, "quarantine", "list");
        CliRun json = run(backend, "quarantine", "list", "--json");
        CliRun stats = run(backend, "stats");

        assertThat(list.exit()).as(list.err()).isZero();
        assertThat(list.out()).containsPattern("(?m)acme\\s+" + seq + "\\s+0\\s+.*hook does not decode")
                .containsPattern("(?m)acme\\s+" + seq + "\\s+1\\s+.*hook does not decode");
        assertThat(json.out()).contains("\"tenant\":\"acme\",\"seq\":" + seq + ",\"sink\":0")
                .contains("\"reason\":\"hook does not decode\"");
        assertThat(stats.out()).containsPattern("(?m)^quarantined\\s+2 \\(store corruption");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void ankusaQuarantineReleaseAndPurgeMoveATenantsQuarantineAndAreAudited(String backend) {
        quarantinedStore(backend);

        CliRun noTenant = run(backend, "quarantine", "purge");
        CliRun unknown = run(backend, "quarantine", "purge", "--tenant", "nobody");
        CliRun release = run(backend, "quarantine", "release", "--tenant", "acme");

        assertThat(noTenant.exit()).isEqualTo(2);
        assertThat(unknown.exit()).isEqualTo(6);
        assertThat(release.exit()).as(release.err()).isZero();
        assertThat(release.out()).containsPattern("(?m)^deliveries\\s+2$");
        assertThat(run(backend, "stats").out()).containsPattern("(?m)^quarantined\\s+0$").containsPattern("(?m)^pending\\s+2$");

        // The hook still does not decode: the next claim quarantines it again, and purge deletes it.
        try (QueueUnderTest q = QueueUnderTest.open(backend, dir)) {
            q.clock().advance(400L * 24 * 3600 * 1000); // past the system clock the CLI released them at
            try (Pipeline pipeline = Pipeline.builder(q.queue(), d -> CompletableFuture.completedFuture(SinkOutcome.delivered()))
                    .manual()) {
                pipeline.tick().toCompletableFuture().join();
            }
        }
        CliRun purge = run(backend, "quarantine", "purge", "--tenant", "acme");
        assertThat(purge.exit()).as(purge.err()).isZero();
        assertThat(purge.out()).containsPattern("(?m)^deliveries\\s+2$");
        assertThat(run(backend, "quarantine", "list").out()).contains("nothing quarantined");
        try (QueueUnderTest q = QueueUnderTest.open(backend, dir)) {
            assertThat(q.queue().auditTrail(2)).extracting(e -> e.action().code())
                    .containsExactly("quarantine-purge", "quarantine-release");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aDeadLetterListingThatMeetsAByTenantKeyWithoutItsDeadRowExits8(String backend) {
        try (QueueUnderTest q = QueueUnderTest.open(backend, dir)) {
            q.ingest(QueueUnderTest.hook("h", "acme", 0));
            try (Pipeline pipeline = Pipeline.builder(q.queue(), d -> CompletableFuture.completedFuture(SinkOutcome.dead("gone")))
                    .manual()) {
                pipeline.tick().toCompletableFuture().join();
            }
            byte[] deadKey;
            try (Scan scan = q.store().scan(ColumnFamilies.INDEX, KeyRange.of(DeadKey.FAMILY.between().from(),
                    DeadKey.FAMILY.between().to()))) {
                deadKey = scan.next().key();
            }
            q.store().commit(new WriteBatch().delete(ColumnFamilies.INDEX, deadKey), Durability.SYNC);
        }

        CliRun dlq = run(backend, "dlq", "--tenant", "acme");

        assertThat(dlq.exit()).as(dlq.out()).isEqualTo(8);
        assertThat(dlq.err()).contains("has no dead row");
    }
}

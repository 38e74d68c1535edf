package io.ankusa.tests.upgrade;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.api.QueueConfig;
import io.ankusa.queue.Queue;
import io.ankusa.queue.ledger.ClaimedDelivery;
import io.ankusa.queue.ledger.DeliveryLedger;
import io.ankusa.queue.ledger.DueKind;
import io.ankusa.queue.ledger.DueRow;
import io.ankusa.queue.ledger.LedgerSource;
import io.ankusa.queue.ledger.TenantDirectory;
import io.ankusa.queue.migration.FormatTwoWriter;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The 2 &rarr; 3 migration files a format-2 due row that is due at the migration's start as a
 * first attempt, with its delivery row (and its attempts) as they were: its claim still reads the
 * delivery row and hands the sink the attempt after the last one, although it is a first attempt.
 */
class MigratedAttemptsTest {

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aMigratedFirstAttemptWithFailedAttemptsGetsTheAttemptAfterThem(String backend) {
        Path store = dir.resolve("store");
        try (FormatTwoWriter w = FormatTwoWriter.create(backend, store)) {
            long tried = w.hook(StoreFixtures.hook("tried", "acme", 0), StoreFixtures.EPOCH);
            w.due(tried, 0, StoreFixtures.EPOCH - 1, 3);
            long fresh = w.hook(StoreFixtures.hook("fresh", "acme", 0), StoreFixtures.EPOCH);
            w.due(fresh, 0, StoreFixtures.EPOCH - 1, 0);
        }
        QueueConfig config = Upgrades.config(backend, store);
        Upgrades.migrate(config);

        try (Queue queue = Queue.open(config)) {
            DeliveryLedger ledger = LedgerSource.of(queue).deliveryLedger();
            long ord = LedgerSource.of(queue).tenantDirectory().ord("acme").orElseThrow();
            long mark = ledger.dueReadMark();
            List<DueRow> due = ledger.dueForTenant(ord, StoreFixtures.EPOCH, 0, 10, Long.MAX_VALUE);
            assertThat(due).extracting(DueRow::kind).containsOnly(DueKind.FIRST_ATTEMPT).hasSize(2);

            List<ClaimedDelivery> claimed = ledger.claimAll(Map.of(ord, due), Map.of(), mark).claimed().stream()
                    .sorted(Comparator.comparing(ClaimedDelivery::hookId)).toList();

            assertThat(claimed).extracting(ClaimedDelivery::hookId, ClaimedDelivery::attempt).containsExactly(
                    org.assertj.core.groups.Tuple.tuple("fresh", 1), org.assertj.core.groups.Tuple.tuple("tried", 4));
        }
    }
}

package io.ankusa.tests.crash;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.api.QueueConfig;
import io.ankusa.api.Receipt;
import io.ankusa.keys.DeliveryKey;
import io.ankusa.queue.Queue;
import io.ankusa.queue.engine.QueueEngine;
import io.ankusa.queue.ledger.LedgerSource;
import io.ankusa.queue.ledger.TenantDirectory;
import io.ankusa.queue.migration.StoreLayout;
import io.ankusa.store.Store;
import io.ankusa.store.StoreOptions;
import io.ankusa.store.Stores;
import io.ankusa.testkit.property.Gen;
import io.ankusa.testkit.property.Property;
import io.ankusa.testkit.property.PropertyConfig;
import io.ankusa.tests.queue.QueueUnderTest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The crash check of spec "Proof": a child JVM ({@link AckingQueueProcess}) ingests hooks over many
 * tenants with synced acknowledgements and prints each acknowledged hook; the test SIGKILLs it at a
 * seeded random moment (after a random number of acknowledgements, and with the dispatcher after a
 * random number of settled deliveries too), then checks the store twice:
 * <ol>
 * <li>as the crash left it, opened raw: it opens; ordinals are one bijection without gaps; every
 *     acknowledged hook has its delivery rows under its tenant's ordinal (due, or further along:
 *     inflight, dead, delivered); the counters equal a fold of the index ({@link CrashAudit});</li>
 * <li>after {@link Queue#open} (boot recovery): every row that was inflight is due again as a
 *     first attempt under the same ordinal, nothing is inflight, the same checks hold, and the
 *     queue takes new hooks with fresh seqs and ordinals.</li>
 * </ol>
 * The rows inflight at the kill are the duplicate window (sent again after boot): there are never
 * more than the child pipeline's concurrency, and each round prints how many there were and how
 * many of them the parent saw handed to the sink.
 * Rounds per backend: {@code -Dankusa.crash.rounds} (default 2; the {@code soak} profile runs 20);
 * replay with {@code -Dankusa.seed=…} from a failure.
 */
class KillNineTest {

    /** The most acknowledgements before the kill. */
    private static final int MAX_ACKS_BEFORE_KILL = 4_000;
    /** With the dispatcher: the most settled deliveries before the kill. */
    private static final int MAX_SETTLES_BEFORE_KILL = 400;

    @TempDir
    Path tempDir;

    /** One round's plan. */
    record Round(long childSeed, int acksBeforeKill, int settlesBeforeKill) {
    }

    private static PropertyConfig rounds() {
        return new PropertyConfig(PropertyConfig.of(1, 1).seed(), Integer.getInteger("ankusa.crash.rounds", 2), 1);
    }

    private static Gen<Round> plans() {
        return random -> new Round(random.nextLong(), random.nextInt(MAX_ACKS_BEFORE_KILL + 1),
                random.nextInt(MAX_SETTLES_BEFORE_KILL + 1));
    }

    /** The backends to run: {@code -Dankusa.crash.backends=lmdb} (comma-separated) narrows a soak to some. */
    static Stream<String> backends() {
        String only = System.getProperty("ankusa.crash.backends", "");
        List<String> wanted = only.isBlank() ? List.of() : List.of(only.split(","));
        return io.ankusa.tests.queue.Backends.names().filter(b -> wanted.isEmpty() || wanted.contains(b));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("backends")
    void countersEqualTheIndexAfterKillNine(String backend) {
        AtomicInteger n = new AtomicInteger();
        Property.forAll(rounds(), plans(), round -> run(backend, "ingest", round, n.incrementAndGet()));
    }

    /** Killed while dispatching too: the rows inflight at the kill are due again after the boot. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("backends")
    void countersEqualTheIndexAfterKillNineWhileDispatching(String backend) {
        AtomicInteger n = new AtomicInteger();
        Property.forAll(rounds(), plans(), round -> run(backend, "dispatch", round, n.incrementAndGet()));
    }

    private void run(String backend, String mode, Round round, int number) throws IOException {
        boolean dispatching = mode.equals("dispatch");
        Path dir = tempDir.resolve(mode + "-" + number);
        List<AckedHook> acked = new ArrayList<>();
        long t0 = System.nanoTime();
        int[] settles = {0};
        Set<String> sent = new HashSet<>();
        try (ChildJvm child = ChildJvm.start(AckingQueueProcess.class, tempDir.resolve(mode + "-" + number + ".err"),
                backend, dir.toString(), String.valueOf(round.childSeed()), mode)) {
            child.readUntil(line -> line.equals("ready"));
            child.readUntil(line -> {
                AckedHook.parse(line).ifPresent(acked::add);
                if (line.startsWith("settled ")) {
                    settles[0]++;
                } else if (line.startsWith("sent ")) {
                    sent.add(line.substring("sent ".length()));
                }
                return acked.size() >= round.acksBeforeKill()
                        && (!dispatching || settles[0] >= round.settlesBeforeKill());
            });
            for (String line : child.killNine()) {
                AckedHook.parse(line).ifPresent(acked::add);
                if (line.startsWith("sent ")) {
                    sent.add(line.substring("sent ".length()));
                }
            }
        }
        Map<DeliveryKey, CrashAudit.Location> inflight;
        long lastSeq;
        try (Store store = Stores.open(backend, StoreOptions.existing(dir, StoreLayout.families()))) {
            CrashAudit audit = CrashAudit.of(store);
            audit.assertAcked(acked, dispatching ? EnumSet.allOf(CrashAudit.State.class)
                    : EnumSet.of(CrashAudit.State.DUE_FIRST), dispatching, sent);
            inflight = audit.inflight();
            lastSeq = audit.lastSeq();
            // The duplicate window: every row inflight at the kill is due again after boot and is sent
            // again. A slot is held from the claim until the settle's synced commit returned, so there
            // are never more of them than the pipeline's concurrency (docs/delivery.md).
            assertThat(inflight.size()).as("deliveries inflight at the kill (sent again after boot)")
                    .isLessThanOrEqualTo(PipelineDispatcher.CONCURRENCY);
            assertThat(lastSeq).as("m:last_seq covers every receipt")
                    .isGreaterThanOrEqualTo(acked.stream().mapToLong(AckedHook::seq).max().orElse(0));
        }
        try (Queue queue = Queue.open(QueueConfig.builder(dir).backend(backend)
                .housekeepingInterval(Duration.ZERO).build())) {
            Store store = QueueEngine.of(queue).store();
            CrashAudit audit = CrashAudit.of(store);
            EnumSet<CrashAudit.State> settled = EnumSet.of(CrashAudit.State.DUE_FIRST, CrashAudit.State.DUE_RETRY,
                    CrashAudit.State.DEAD);
            audit.assertAcked(acked, dispatching ? settled : EnumSet.of(CrashAudit.State.DUE_FIRST), dispatching, sent);
            assertThat(audit.inflight()).as("inflight rows after boot").isEmpty();
            inflight.forEach((row, before) -> assertThat(audit.location(row)).as("%s, inflight at the crash", row)
                    .contains(new CrashAudit.Location(CrashAudit.State.DUE_FIRST, before.ord())));
            assertThat(queue.stats().inflight()).isZero();

            long tenants = queue.tenantCount() + (LedgerSource.of(queue).tenantDirectory().ord("tenant-0").isPresent() ? 0 : 1);
            Receipt again = QueueUnderTest.await(queue.ingest(QueueUnderTest.hook("after-" + number, "tenant-0", 1)));
            Receipt fresh = QueueUnderTest.await(queue.ingest(QueueUnderTest.hook("new-" + number, "brand-new", 1)));
            assertThat(again.seq()).as("seq after the crash").isGreaterThan(lastSeq);
            assertThat(fresh.seq()).isGreaterThan(again.seq());
            assertThat(LedgerSource.of(queue).tenantDirectory().ord("brand-new")).as("a new tenant's ordinal after the crash").hasValue(tenants + 1);
            CrashAudit.of(store);
        }
        Map<Long, String> idBySeq = new HashMap<>();
        acked.forEach(h -> idBySeq.put(h.seq(), h.id()));
        long seenSent = inflight.keySet().stream()
                .filter(k -> sent.contains(idBySeq.get(k.seq()) + " " + k.sink())).count();
        System.out.printf("kill -9 %s %s round %d: %d hooks acknowledged, %d deliveries settled, %d deliveries inflight at the"
                + " kill (sent again after boot; %d of them seen handed to the sink); checked in %d ms%n", backend, mode,
                number, acked.size(), settles[0], inflight.size(), seenSent, (System.nanoTime() - t0) / 1_000_000);
        deleteQuietly(dir);
    }

    private static void deleteQuietly(Path dir) throws IOException {
        try (var paths = Files.walk(dir)) {
            for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}

package io.ankusa.tests.operator;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.api.DeadLetter;
import io.ankusa.api.DeadLetterCursor;
import io.ankusa.api.DeadLetterPage;
import io.ankusa.api.DeadLetterQuery;
import io.ankusa.api.PurgeKind;
import io.ankusa.keys.ColumnFamilies;
import io.ankusa.keys.DeadKey;
import io.ankusa.keys.Prefixes;
import io.ankusa.keys.KeySpan;
import io.ankusa.store.Bytes;
import io.ankusa.store.Direction;
import io.ankusa.tests.queue.QueueUnderTest;
import io.ankusa.tests.support.RecordingStore;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Dead-letter pages: global newest first, by tenants through ?X, cursors, and what a read touches. */
class DeadLetterPagesTest {

    @TempDir
    Path dir;

    private static final Comparator<DeadLetter> NEWEST_FIRST = Comparator.comparing(DeadLetter::deadAt)
            .thenComparingLong(DeadLetter::seq).thenComparingInt(DeadLetter::sink).reversed();

    /** Three tenants with dead letters interleaved in time (a: 5, b: 4, c: 3), and due rows left. */
    private static void seed(QueueUnderTest q) {
        for (int i = 0; i < 4; i++) {
            q.ingest(QueueUnderTest.hook("a" + i, "a", 0, 1));
            q.ingest(QueueUnderTest.hook("b" + i, "b", 2));
            q.ingest(QueueUnderTest.hook("c" + i, null, 3));
        }
        for (int round = 0; round < 5; round++) {
            Operations.deadLetter(q, "a", 1);
            Operations.deadLetter(q, "b", 1);
            Operations.deadLetter(q, "default", 1);
        }
    }

    private static List<DeadLetter> walk(QueueUnderTest q, DeadLetterQuery query) {
        List<DeadLetter> all = new ArrayList<>();
        DeadLetterPage page = q.queue().deadLetters(query);
        all.addAll(page.letters());
        while (page.next().isPresent()) {
            assertThat(page.letters()).hasSize(query.limit());
            page = q.queue().deadLetters(query.after(page.next().get()));
            all.addAll(page.letters());
        }
        return all;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void theGlobalDeadLetterListingIsNewestFirstAcrossTenantsAndPagesByCursor(String backend) {
        try (QueueUnderTest q = QueueUnderTest.open(backend, dir)) {
            seed(q);
            List<DeadLetter> all = walk(q, DeadLetterQuery.all().limit(2));
            assertThat(all).hasSize(13).isSortedAccordingTo(NEWEST_FIRST);
            assertThat(all).extracting(DeadLetter::tenantId).containsOnly("a", "b", "default");
            assertThat(all.stream().filter(l -> l.tenantId().equals("a"))).hasSize(5);
            assertThat(all.stream().map(DeadLetter::cursor).distinct()).hasSize(13);
            DeadLetter newest = all.get(0);
            assertThat(newest.tenantId()).as("a has the most, so the last dead letter is a's").isEqualTo("a");
            assertThat(newest.sourceId()).isEqualTo("src");
            assertThat(newest.hookId()).startsWith("a");
            assertThat(newest.sink()).isIn(0, 1);
            assertThat(all).filteredOn(l -> l.tenantId().equals("default"))
                    .allSatisfy(l -> assertThat(l.hookId()).startsWith("c")).extracting(DeadLetter::sink).containsOnly(3);
            assertThat(newest.attempts()).isEqualTo(1);
            assertThat(newest.lastError()).isEqualTo("HTTP 410 from " + newest.hookId());
            assertThat(newest.deadAt()).isEqualTo(Instant.ofEpochMilli(q.clock().millis()));
            assertThat(q.queue().deadLetters(DeadLetterQuery.all().limit(13)).next()).as("exactly one page").isEmpty();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aDlqFilteredByTenantsMergesTheirRangesNewestFirstAndPagesByTheSameCursor(String backend) {
        try (QueueUnderTest q = QueueUnderTest.open(backend, dir)) {
            seed(q);
            List<DeadLetter> global = walk(q, DeadLetterQuery.all().limit(100));
            List<DeadLetter> aAndDefault = walk(q, DeadLetterQuery.tenants("a", "default", "nobody").limit(3));
            assertThat(aAndDefault).containsExactlyElementsOf(
                    global.stream().filter(l -> Set.of("a", "default").contains(l.tenantId())).toList());
            assertThat(walk(q, DeadLetterQuery.tenants("b").limit(1))).hasSize(4).allMatch(l -> l.tenantId().equals("b"));
            // A cursor from the global listing continues a filtered one at the same point in time.
            DeadLetterCursor middle = global.get(5).cursor();
            assertThat(q.queue().deadLetters(DeadLetterQuery.tenants("a").after(middle)).letters())
                    .containsExactlyElementsOf(global.subList(6, 13).stream().filter(l -> l.tenantId().equals("a")).toList());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void tenantScopedDlqReadsOneRange(String backend) {
        AtomicReference<RecordingStore> recorder = new AtomicReference<>();
        try (QueueUnderTest q = QueueUnderTest.open(backend, dir, b -> b, s -> {
            recorder.set(new RecordingStore(s));
            return recorder.get();
        })) {
            seed(q);
            long a = q.ord("a").orElseThrow();
            RecordingStore store = recorder.get();
            store.clear();

            DeadLetterPage page = q.queue().deadLetters(DeadLetterQuery.tenants("a").limit(10));

            assertThat(page.letters()).hasSize(5).allMatch(l -> l.tenantId().equals("a"));
            assertThat(store.calls()).as("no hook is read").noneMatch(c -> c.touches(ColumnFamilies.HOOKS));
            assertThat(store.calls("commit")).as("a read writes nothing").isEmpty();
            List<RecordingStore.Call> scans = store.calls("scan");
            assertThat(scans).as("one range scan").hasSize(1);
            RecordingStore.Call scan = scans.get(0);
            assertThat(scan.family()).isEqualTo(ColumnFamilies.INDEX);
            assertThat(scan.direction()).hasValue(Direction.REVERSE);
            byte[] tenantPrefix = {Prefixes.DEAD_BY_TENANT, 0, 0, 0, (byte) a};
            KeySpan tenantRange = KeySpan.prefix(tenantPrefix);
            assertThat(Bytes.hex(scan.range().orElseThrow().from())).isEqualTo(Bytes.hex(tenantRange.from()));
            assertThat(Bytes.hex(scan.range().orElseThrow().to())).isEqualTo(Bytes.hex(tenantRange.to()));
            // The page's ?X keys are joined to their ?x values with one multi-get, nothing else of the index is read.
            List<RecordingStore.Call> indexReads = store.calls("multiGet").stream()
                    .filter(c -> c.family().equals(ColumnFamilies.INDEX)).toList();
            assertThat(indexReads).hasSize(1);
            assertThat(indexReads.get(0).keys()).hasSize(5).allSatisfy(k -> assertThat(k[0]).isEqualTo(Prefixes.DEAD))
                    .allSatisfy(k -> assertThat(k).hasSize(DeadKey.LENGTH));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aDlqFilteredByTenantsTheQueueNeverSawIsEmptyAndScansNothing(String backend) {
        AtomicReference<RecordingStore> recorder = new AtomicReference<>();
        try (QueueUnderTest q = QueueUnderTest.open(backend, dir, b -> b, s -> {
            recorder.set(new RecordingStore(s));
            return recorder.get();
        })) {
            seed(q);
            recorder.get().clear();
            DeadLetterPage page = q.queue().deadLetters(DeadLetterQuery.tenants("nobody", "ghost"));
            assertThat(page.letters()).isEmpty();
            assertThat(page.next()).isEmpty();
            assertThat(recorder.get().calls("scan")).isEmpty();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void lettersRevivedOrPurgedBetweenPagesDropOutAndTheWalkGoesOn(String backend) {
        try (QueueUnderTest q = QueueUnderTest.open(backend, dir)) {
            seed(q);
            DeadLetterPage first = q.queue().deadLetters(DeadLetterQuery.all().limit(4));
            long b = q.ord("b").orElseThrow();
            q.ledger().revive(b, q.ledger().deadRows(b, 100));
            q.queue().purgeTenant("default", Set.of(PurgeKind.DEAD));
            Optional<DeadLetterCursor> next = first.next();
            List<DeadLetter> rest = walk(q, DeadLetterQuery.all().limit(2).after(next.orElseThrow()));
            assertThat(rest).isNotEmpty().allMatch(l -> l.tenantId().equals("a")).isSortedAccordingTo(NEWEST_FIRST);
            assertThat(rest).allMatch(l -> NEWEST_FIRST.compare(first.letters().get(3), l) < 0);
        }
    }
}

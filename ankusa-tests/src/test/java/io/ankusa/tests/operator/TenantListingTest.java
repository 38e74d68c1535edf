package io.ankusa.tests.operator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ankusa.api.TenantCursor;
import io.ankusa.api.TenantPage;
import io.ankusa.api.TenantQuery;
import io.ankusa.api.TenantSummary;
import io.ankusa.keys.ColumnFamilies;
import io.ankusa.tests.queue.QueueUnderTest;
import io.ankusa.tests.support.RecordingStore;
import io.ankusa.tests.support.ScanCountingStore;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The tenant listing ({@code Queue.tenants}): every tenant once, in tenant-id order (UTF-8 byte
 * order), by prefix, from a cursor; each with its counters; erased tenants left out; one bounded scan
 * of the tenant index a page.
 */
class TenantListingTest {

    /** Ids sharing prefixes, one past 'z' in UTF-8 order, and a tenant that will be erased. */
    private static final List<String> LIVE = List.of("acme", "acme-eu", "acme-us", "acmex", "b", "beta", "zeta",
            "\u00e4rger", "default");

    private static final String ERASED = "acme-old";

    private static final Comparator<String> UTF8_ORDER = (a, b) -> Arrays.compareUnsigned(
            a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));

    @TempDir
    Path dir;

    /**
     * Tenant i of {@link #LIVE} gets i + 1 hooks with one sink each, and its first hook is dead-lettered
     * (so each tenant's pending and dead counts differ); the erased tenant had hooks and a dead letter.
     */
    private static void seed(QueueUnderTest q) {
        for (int i = 0; i < LIVE.size(); i++) {
            String tenant = LIVE.get(i);
            for (int h = 0; h <= i; h++) {
                q.ingest(QueueUnderTest.hook("h" + i + "x" + h, tenant.equals("default") ? null : tenant, 0));
            }
            Operations.deadLetter(q, tenant, 1);
        }
        q.ingest(QueueUnderTest.hook("gone", ERASED, 0, 1));
        Operations.deadLetter(q, ERASED, 1);
        q.queue().eraseTenant(ERASED);
    }

    private static List<TenantSummary> walk(QueueUnderTest q, TenantQuery query) {
        List<TenantSummary> all = new ArrayList<>();
        TenantPage page = q.queue().tenants(query);
        all.addAll(page.tenants());
        while (page.next().isPresent()) {
            assertThat(page.tenants()).hasSize(query.limit());
            // The token round trip is what an HTTP caller does with the cursor.
            page = q.queue().tenants(query.after(TenantCursor.parse(page.next().get().token())));
            all.addAll(page.tenants());
        }
        return all;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void smallPagesListEveryLiveTenantOnceInIdOrderWithItsCounters(String backend) {
        try (QueueUnderTest q = QueueUnderTest.open(backend, dir)) {
            seed(q);
            List<String> expected = LIVE.stream().sorted(UTF8_ORDER).toList();

            for (int limit : new int[] {1, 2, 3, LIVE.size(), TenantQuery.MAX_LIMIT}) {
                List<TenantSummary> listed = walk(q, TenantQuery.all().limit(limit));
                assertThat(listed).extracting(TenantSummary::tenantId).as("limit " + limit)
                        .containsExactlyElementsOf(expected);
            }
            assertThat(expected.get(expected.size() - 1)).as("UTF-8 order, not UTF-16").isEqualTo("\u00e4rger");
            for (TenantSummary t : walk(q, TenantQuery.all().limit(4))) {
                int i = LIVE.indexOf(t.tenantId());
                assertThat(t.stats()).isEqualTo(q.queue().pendingForTenant(t.tenantId()));
                assertThat(t.deadStats()).isEqualTo(q.queue().deadForTenant(t.tenantId()));
                assertThat(t.stats().pending()).as(t.tenantId()).isEqualTo(i);
                assertThat(t.stats().dead()).as(t.tenantId()).isEqualTo(1);
            }
            assertThat(q.queue().tenants(TenantQuery.all().limit(LIVE.size())).next())
                    .as("exactly one page: no empty page follows").isEmpty();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aPrefixListsOnlyTheIdsThatStartWithItAndTheErasedTenantIsNotAmongThem(String backend) {
        try (QueueUnderTest q = QueueUnderTest.open(backend, dir)) {
            seed(q);

            assertThat(walk(q, TenantQuery.all().prefix("acme").limit(1))).extracting(TenantSummary::tenantId)
                    .containsExactly("acme", "acme-eu", "acme-us", "acmex");
            assertThat(walk(q, TenantQuery.all().prefix("acme-").limit(2))).extracting(TenantSummary::tenantId)
                    .containsExactly("acme-eu", "acme-us");
            assertThat(walk(q, TenantQuery.all().prefix("b").limit(1))).extracting(TenantSummary::tenantId)
                    .containsExactly("b", "beta");
            assertThat(walk(q, TenantQuery.all().prefix("\u00e4").limit(1))).extracting(TenantSummary::tenantId)
                    .containsExactly("\u00e4rger");
            assertThat(q.queue().tenants(TenantQuery.all().prefix("acme-o")).tenants()).as("erased").isEmpty();
            assertThat(q.queue().tenants(TenantQuery.all().prefix("nobody")).tenants()).isEmpty();
            assertThat(q.queue().tenants(TenantQuery.all().prefix("acme").after(new TenantCursor("acme-f"))).tenants())
                    .as("a cursor that names no tenant continues after where it would be")
                    .extracting(TenantSummary::tenantId).containsExactly("acme-us", "acmex");
            assertThat(q.queue().tenants(TenantQuery.all().prefix("acme").after(new TenantCursor("b"))).tenants())
                    .as("a cursor past the prefix").isEmpty();
            assertThat(q.queue().tenants(TenantQuery.all().prefix("b").after(new TenantCursor("a"))).tenants())
                    .as("a cursor before the prefix").extracting(TenantSummary::tenantId).containsExactly("b", "beta");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aPageIsOneRangeScanOfTheTenantIndexReadingAtMostOneKeyMoreThanTheLimit(String backend) {
        AtomicReference<ScanCountingStore> scans = new AtomicReference<>();
        AtomicReference<RecordingStore> recorder = new AtomicReference<>();
        try (QueueUnderTest q = QueueUnderTest.open(backend, dir, b -> b, s -> {
            scans.set(new ScanCountingStore(s));
            recorder.set(new RecordingStore(scans.get()));
            return recorder.get();
        })) {
            seed(q);
            scans.get().clear();
            recorder.get().clear();

            TenantPage page = q.queue().tenants(TenantQuery.all().limit(2).after(new TenantCursor("acme-eu")));

            assertThat(page.tenants()).extracting(TenantSummary::tenantId).containsExactly("acme-us", "acmex");
            assertThat(scans.get().scans()).as("one scan").hasSize(1);
            ScanCountingStore.CountedScan scan = scans.get().scans().get(0);
            assertThat(scan.family()).isEqualTo(ColumnFamilies.TENANTS);
            assertThat(scan.entries()).as("the page and one key to know there is more").isEqualTo(3);
            assertThat(recorder.get().calls()).as("only the tenant index and the page's counters are read")
                    .allMatch(c -> c.family().equals(ColumnFamilies.TENANTS) || c.family().equals(ColumnFamilies.COUNTERS));
            assertThat(recorder.get().calls("counters")).as("one multi-get of the page's counters").hasSize(1)
                    .allSatisfy(c -> assertThat(c.keys()).hasSize(2 * 8));
            assertThat(recorder.get().calls("commit")).as("a read writes nothing").isEmpty();
        }
    }

    @Test
    void theLimitIsOneToAThousandAndAPrefixMustBeAbleToStartATenantId() {
        assertThatThrownBy(() -> TenantQuery.all().limit(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> TenantQuery.all().limit(TenantQuery.MAX_LIMIT + 1))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(TenantQuery.all().limit(TenantQuery.MAX_LIMIT).limit()).isEqualTo(1_000);
        assertThat(TenantQuery.all().limit()).isEqualTo(TenantQuery.DEFAULT_LIMIT);
        assertThatThrownBy(() -> TenantQuery.all().prefix("a\0")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> TenantQuery.all().prefix("\ud800")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> TenantQuery.all().prefix("x".repeat(256))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> TenantCursor.parse("not base64!")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> TenantCursor.parse("")).as("no tenant id is empty")
                .isInstanceOf(IllegalArgumentException.class);
        TenantCursor cursor = new TenantCursor("\u00e4rger/eu");
        assertThat(TenantCursor.parse(cursor.token())).isEqualTo(cursor);
        assertThat(cursor.token()).matches("[A-Za-z0-9_-]+");
    }
}

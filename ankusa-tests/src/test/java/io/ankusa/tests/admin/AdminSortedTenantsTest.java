package io.ankusa.tests.admin;

import static io.ankusa.tests.admin.AdminNode.VIEWER;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.ankusa.api.Receipt;
import io.ankusa.api.TenantCursor;
import io.ankusa.api.TenantPage;
import io.ankusa.api.TenantQuery;
import io.ankusa.api.TenantSummary;
import io.ankusa.queue.Queue;
import io.ankusa.tests.queue.QueueUnderTest;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code GET /v1/tenants?sort=...} over more tenants than one page of the tenant index holds: the
 * ranking's walk crosses pages, and the sorted page is the true top of the whole node.
 */
class AdminSortedTenantsTest {

    /** More than one page of {@link TenantQuery#MAX_LIMIT} tenants, so the walk takes three steps. */
    private static final int TENANTS = 2_300;

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void theSortedListingIsTheTopOfEveryTenant(String backend) {
        try (AdminNode node = AdminNode.open(backend, dir, AdminNode.tokens(), AdminSortedTenantsTest::seed)) {
            List<TenantSummary> truth = everyTenant(node.fixture.queue());
            assertThat(truth).hasSize(TENANTS);
            truth.sort(Comparator.comparingLong((TenantSummary t) -> t.stats().pending()).reversed()
                    .thenComparing(TenantSummary::tenantId));

            JsonNode sorted = node.client.get("/v1/tenants?sort=pending&limit=5", VIEWER).json();
            assertThat(tenants(sorted)).containsExactlyElementsOf(
                    truth.subList(0, 5).stream().map(TenantSummary::tenantId).toList());
            assertThat(tenants(sorted)).as("the heavy tenants live in different pages of the index")
                    .containsExactly("t-2211", "t-1502", "t-0007", "t-2210", "t-1501");
            assertThat(sorted.at("/tenants/0/stats/pending").asLong()).isEqualTo(truth.get(0).stats().pending());
            assertThat(sorted.path("rankedTenants").asLong()).isEqualTo(TENANTS);
            assertThat(sorted.path("rankedAt").asText()).isNotEmpty();
            assertThat(sorted.path("next").isNull()).isTrue();

            assertThat(tenants(node.client.get("/v1/tenants?sort=pending&prefix=t-15&limit=2", VIEWER).json()))
                    .containsExactly("t-1502", "t-1501");
            assertThat(node.client.get("/v1/tenants?sort=bananas", VIEWER).error()).isEqualTo("bad_request");
            assertThat(node.client.get("/v1/tenants?sort=pending&after=t-0001", VIEWER).error())
                    .isEqualTo("bad_request");
        }
    }

    private static AdminNode seed(AdminNode node) {
        List<CompletableFuture<Receipt>> receipts = new ArrayList<>();
        for (int i = 0; i < TENANTS; i++) {
            String tenant = String.format("t-%04d", i);
            int hooks = heavy(i);
            for (int h = 0; h < hooks; h++) {
                receipts.add(node.fixture.queue().ingest(QueueUnderTest.hook("h" + h, tenant, 0)));
            }
        }
        receipts.forEach(QueueUnderTest::await);
        return node;
    }

    /** One hook each, but for a few tenants spread over the index's pages. */
    private static int heavy(int tenant) {
        return switch (tenant) {
            case 2211 -> 9;
            case 1502 -> 8;
            case 7 -> 7;
            case 2210 -> 6;
            case 1501 -> 5;
            default -> 1 + tenant % 3;
        };
    }

    private static List<TenantSummary> everyTenant(Queue queue) {
        List<TenantSummary> all = new ArrayList<>();
        Optional<TenantCursor> after = Optional.empty();
        do {
            TenantQuery query = TenantQuery.all().limit(TenantQuery.MAX_LIMIT);
            TenantPage page = queue.tenants(after.isPresent() ? query.after(after.get()) : query);
            all.addAll(page.tenants());
            after = page.next();
        } while (after.isPresent());
        return all;
    }

    private static List<String> tenants(JsonNode listing) {
        List<String> out = new ArrayList<>();
        listing.path("tenants").forEach(n -> out.add(n.path("tenant").asText()));
        return out;
    }
}

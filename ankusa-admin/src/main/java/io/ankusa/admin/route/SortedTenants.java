package io.ankusa.admin.route;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ankusa.admin.json.Nodes;
import io.ankusa.admin.json.QueueJson;
import io.ankusa.api.TenantSummary;
import io.ankusa.dispatch.Pipeline;
import io.ankusa.dispatch.report.TenantHealth;
import io.ankusa.queue.Queue;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * {@code GET /v1/tenants?sort=KEY}: the tenants with the most of one counter, from the
 * {@link TenantRanking} (as of its last pass), or with the oldest due rows, from the pipeline's
 * scheduler ({@link Pipeline#troubledTenants}). Either way the listed tenants' counters are read
 * again (one point read each), so the figures shown are current; no request scans the tenant index.
 */
final class SortedTenants {

    /** The sort keys, as the API spells them. */
    static final List<String> KEYS = List.of("pending", "scheduled", "inflight", "dead", "quarantined", "bytes",
            "oldestDue");

    private final Queue queue;
    private final Optional<Pipeline> pipeline;
    private final TenantRanking ranking;

    SortedTenants(Queue queue, Optional<Pipeline> pipeline, TenantRanking ranking) {
        this.queue = queue;
        this.pipeline = pipeline;
        this.ranking = ranking;
    }

    ApiResponse list(ApiRequest request, String sort) {
        if (!KEYS.contains(sort)) {
            throw ApiException.badRequest("sort must be one of " + KEYS + ", not '" + sort + "'");
        }
        if (request.param("after").isPresent()) {
            throw ApiException.badRequest("a sorted listing is one page of the highest; it takes no 'after'");
        }
        String prefix = request.param("prefix").orElse("");
        int limit = request.limit();
        ObjectNode body = Nodes.object();
        body.put("sort", sort);
        List<String> tenants;
        if (sort.equals("oldestDue")) {
            Pipeline node = pipeline.orElseThrow(() -> ApiException.badRequest(
                    "sort=oldestDue needs the node's pipeline (its scheduler knows the due ages)"));
            tenants = node.troubledTenants(TenantRanking.KEEP).byOldestDue().stream().map(TenantHealth::tenantId)
                    .toList();
        } else {
            TenantRanking.Ranking ranked = ranked();
            tenants = ranked.ranked().get(TenantRanking.Key.valueOf(sort.toUpperCase(Locale.ROOT))).stream()
                    .map(TenantSummary::tenantId).toList();
            body.put("rankedAt", ranked.asOf().toString());
            body.put("rankedTenants", ranked.tenants());
        }
        List<TenantSummary> rows = new ArrayList<>();
        for (String tenant : tenants) {
            if (rows.size() == limit) {
                break;
            }
            if (tenant.startsWith(prefix) && request.caller().sees(tenant)) {
                rows.add(new TenantSummary(tenant, queue.pendingForTenant(tenant)));
            }
        }
        if (!sort.equals("oldestDue")) {
            // Ranked as of the pass, shown as of now: the rows read again are ordered by what they hold now.
            rows.sort(TenantRanking.Key.valueOf(sort.toUpperCase(Locale.ROOT)).order());
        }
        body.set("tenants", Nodes.array(rows, QueueJson::tenant));
        body.putNull("next");
        return ApiResponse.ok(body);
    }

    private TenantRanking.Ranking ranked() {
        try {
            return ranking.ranking();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ApiException(503, "unavailable", "interrupted while the tenant ranking was read");
        }
    }
}

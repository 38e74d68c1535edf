package io.ankusa.admin.route;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ankusa.admin.json.DispatchJson;
import io.ankusa.admin.json.Nodes;
import io.ankusa.admin.json.QueueJson;
import io.ankusa.api.AttemptCursor;
import io.ankusa.api.AttemptPage;
import io.ankusa.api.AttemptQuery;
import io.ankusa.api.DeadLetterCursor;
import io.ankusa.api.DeadLetterPage;
import io.ankusa.api.DeadLetterQuery;
import io.ankusa.api.TenantCursor;
import io.ankusa.api.TenantPage;
import io.ankusa.api.TenantQuery;
import io.ankusa.api.TenantSummary;
import io.ankusa.dispatch.Pipeline;
import io.ankusa.queue.Queue;
import java.util.Optional;

/**
 * The tenant reads: the paged listing (sorted by {@link SortedTenants}), one tenant's detail, its
 * dead letters, its attempt history and its quarantined deliveries. Cursors are the library's own
 * tokens ({@link TenantCursor#token()}, {@link DeadLetterCursor#token()}, {@link AttemptCursor#token()}).
 */
final class TenantRoutes {

    /** How many of a tenant's endpoints and quarantined rows its detail shows. */
    static final int DETAIL_ROWS = 100;

    private final Queue queue;
    private final Optional<Pipeline> pipeline;
    private final SortedTenants sorted;

    TenantRoutes(Queue queue, Optional<Pipeline> pipeline, TenantRanking ranking) {
        this.queue = queue;
        this.pipeline = pipeline;
        this.sorted = new SortedTenants(queue, pipeline, ranking);
    }

    ApiResponse list(ApiRequest request) {
        Optional<String> sort = request.param("sort");
        if (sort.isPresent()) {
            return sorted.list(request, sort.get());
        }
        TenantQuery query = TenantQuery.all().limit(request.limit());
        try {
            query = query.prefix(request.param("prefix").orElse(""));
            Optional<String> after = request.param("after");
            if (after.isPresent()) {
                query = query.after(TenantCursor.parse(after.get()));
            }
        } catch (IllegalArgumentException e) {
            throw ApiException.badRequest(e.getMessage());
        }
        TenantPage page = queue.tenants(query);
        ObjectNode body = Nodes.object();
        body.set("tenants", Nodes.array(page.tenants().stream().filter(t -> request.caller().sees(t.tenantId()))
                .toList(), QueueJson::tenant));
        Nodes.putCursor(body, "next", page.next().map(TenantCursor::token));
        return ApiResponse.ok(body);
    }

    ApiResponse tenant(ApiRequest request) {
        String tenant = request.tenant();
        requireKnown(queue, tenant);
        ObjectNode body = Nodes.object();
        body.put("tenant", tenant);
        body.set("stats", QueueJson.tenantStats(queue.pendingForTenant(tenant)));
        body.set("deadStats", QueueJson.deadStats(queue.deadForTenant(tenant)));
        body.set("endpoints", Nodes.array(queue.endpoints(tenant, DETAIL_ROWS), QueueJson::endpoint));
        body.set("quarantined", Nodes.array(queue.quarantine(tenant, DETAIL_ROWS), QueueJson::quarantined));
        Optional<ObjectNode> dispatch = pipeline.flatMap(p -> p.tenantDispatch(tenant)).map(DispatchJson::tenant);
        if (dispatch.isPresent()) {
            body.set("dispatch", dispatch.get());
        } else {
            body.putNull("dispatch");
        }
        return ApiResponse.ok(body);
    }

    ApiResponse dead(ApiRequest request) {
        String tenant = request.tenant();
        DeadLetterQuery query = DeadLetterQuery.tenants(tenant).limit(request.limit());
        Optional<String> after = request.param("after");
        if (after.isPresent()) {
            try {
                query = query.after(DeadLetterCursor.parse(after.get()));
            } catch (IllegalArgumentException e) {
                throw ApiException.badRequest(e.getMessage());
            }
        }
        DeadLetterPage page = queue.deadLetters(query);
        ObjectNode body = Nodes.object();
        body.put("tenant", tenant);
        body.set("letters", Nodes.array(page.letters(), QueueJson::deadLetter));
        Nodes.putCursor(body, "next", page.next().map(DeadLetterCursor::token));
        return ApiResponse.ok(body);
    }

    /**
     * {@code GET /v1/tenants/{tenant}/attempts}: a page of the tenant's attempt history (or one hook id's,
     * with {@code hook}), newest first: one range scan of the history ({@link Queue#attempts}).
     */
    ApiResponse attempts(ApiRequest request) {
        String tenant = request.tenant();
        requireKnown(queue, tenant);
        AttemptQuery query;
        try {
            Optional<String> hook = request.param("hook");
            query = (hook.isPresent() ? AttemptQuery.hook(tenant, hook.get()) : AttemptQuery.tenant(tenant))
                    .limit(request.limit());
            Optional<String> after = request.param("after");
            if (after.isPresent()) {
                query = query.after(AttemptCursor.parse(after.get()));
            }
        } catch (IllegalArgumentException e) {
            throw ApiException.badRequest(e.getMessage());
        }
        AttemptPage page = queue.attempts(query);
        ObjectNode body = Nodes.object();
        body.put("tenant", tenant);
        body.set("attempts", Nodes.array(page.attempts(), QueueJson::attempt));
        Nodes.putCursor(body, "next", page.next().map(AttemptCursor::token));
        return ApiResponse.ok(body);
    }

    /**
     * {@code GET /v1/tenants/{tenant}/quarantine}: up to {@code limit} of the tenant's quarantined deliveries
     * ({@link Queue#quarantine(String, int)}: one range scan of the tenant's quarantine).
     */
    ApiResponse quarantine(ApiRequest request) {
        String tenant = request.tenant();
        requireKnown(queue, tenant);
        ObjectNode body = Nodes.object();
        body.put("tenant", tenant);
        body.set("quarantined", Nodes.array(queue.quarantine(tenant, request.limit()), QueueJson::quarantined));
        return ApiResponse.ok(body);
    }

    /**
     * Refuses a tenant the node does not hold (404): one range scan of the tenant index reading at
     * most one key, as {@link Queue#tenants} reads it.
     */
    static void requireKnown(Queue queue, String tenant) {
        TenantQuery query;
        try {
            query = TenantQuery.all().prefix(tenant).limit(1);
        } catch (IllegalArgumentException e) {
            throw ApiException.notFound("no tenant '" + tenant + "'");
        }
        boolean known = queue.tenants(query).tenants().stream().map(TenantSummary::tenantId).anyMatch(tenant::equals);
        if (!known) {
            throw ApiException.notFound("no tenant '" + tenant + "'");
        }
    }
}

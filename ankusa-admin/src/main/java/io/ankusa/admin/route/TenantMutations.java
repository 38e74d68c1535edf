package io.ankusa.admin.route;

import com.fasterxml.jackson.databind.JsonNode;
import io.ankusa.admin.json.QueueJson;
import io.ankusa.admin.json.ResultJson;
import io.ankusa.api.PurgeKind;
import io.ankusa.queue.Queue;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;

/**
 * The mutations of one tenant: enable or disable an endpoint, release or purge its quarantine,
 * purge its due rows or dead letters, erase it. Purge and erase remove data and need the body to
 * name the tenant in {@code "confirm"}.
 */
final class TenantMutations {

    private static final long MAX_SINK = 0xFFFF;

    private final Queue queue;

    TenantMutations(Queue queue) {
        this.queue = queue;
    }

    ApiResponse enable(ApiRequest request) {
        String tenant = request.tenant();
        int sink = (int) request.pathNumber("sink", 0, MAX_SINK);
        TenantRoutes.requireKnown(queue, tenant);
        return Mutations.done(request, "endpoint-enable", tenant,
                QueueJson.endpoint(queue.actingAs(Mutations.actor(request)).enableEndpoint(tenant, sink)));
    }

    ApiResponse disable(ApiRequest request) {
        String tenant = request.tenant();
        int sink = (int) request.pathNumber("sink", 0, MAX_SINK);
        TenantRoutes.requireKnown(queue, tenant);
        return Mutations.done(request, "endpoint-disable", tenant,
                QueueJson.endpoint(queue.actingAs(Mutations.actor(request)).disableEndpoint(tenant, sink)));
    }

    ApiResponse releaseQuarantine(ApiRequest request) {
        String tenant = request.tenant();
        return Mutations.done(request, "quarantine-release", tenant,
                ResultJson.quarantine(queue.actingAs(Mutations.actor(request)).releaseQuarantine(tenant)));
    }

    ApiResponse purgeQuarantine(ApiRequest request) {
        String tenant = request.tenant();
        return Mutations.done(request, "quarantine-purge", tenant,
                ResultJson.quarantine(queue.actingAs(Mutations.actor(request)).purgeQuarantine(tenant)));
    }

    ApiResponse purge(ApiRequest request) {
        String tenant = request.tenant();
        Mutations.requireConfirmation(request, tenant);
        Set<PurgeKind> kinds = kinds(request.body().get("kinds"));
        return Mutations.done(request, "purge", tenant,
                ResultJson.purge(queue.actingAs(Mutations.actor(request)).purgeTenant(tenant, kinds)));
    }

    ApiResponse erase(ApiRequest request) {
        String tenant = request.tenant();
        Mutations.requireConfirmation(request, tenant);
        return Mutations.done(request, "erase", tenant,
                ResultJson.erasure(queue.actingAs(Mutations.actor(request)).eraseTenant(tenant)));
    }

    /** {@code "kinds": ["pending", "dead"]}; both when absent. */
    private static Set<PurgeKind> kinds(JsonNode kinds) {
        if (kinds == null || kinds.isNull()) {
            return EnumSet.allOf(PurgeKind.class);
        }
        if (!kinds.isArray() || kinds.isEmpty()) {
            throw ApiException.badRequest("kinds is a non-empty array of \"pending\" and \"dead\"");
        }
        Set<PurgeKind> out = EnumSet.noneOf(PurgeKind.class);
        for (JsonNode kind : kinds) {
            String text = kind.isTextual() ? kind.textValue() : "";
            switch (text) {
                case "pending", "dead" -> out.add(PurgeKind.valueOf(text.toUpperCase(Locale.ROOT)));
                default -> throw ApiException.badRequest("kinds is a non-empty array of \"pending\" and \"dead\"");
            }
        }
        return out;
    }
}

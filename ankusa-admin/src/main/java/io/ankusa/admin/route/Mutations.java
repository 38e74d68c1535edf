package io.ankusa.admin.route;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ankusa.admin.json.Nodes;
import io.ankusa.api.AuditEntry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What every mutation answers and logs, and the actor it is audited with: the principal that asked.
 * The queue's audit trail records it with the entry ({@link #actor}); the response returns it as
 * {@code actor}, and it is logged here as one JSON line so that a hostile tenant id cannot forge
 * log lines.
 */
final class Mutations {

    private static final Logger LOG = LoggerFactory.getLogger("io.ankusa.admin.audit");

    private Mutations() {
    }

    /**
     * The request's principal as the audit trail records it: control characters replaced by
     * {@code U+FFFD}, cut to {@value AuditEntry#MAX_ACTOR_LENGTH} characters, {@code "?"} when blank
     * (an access policy may name principals as it likes; the trail's actor has rules).
     */
    static String actor(ApiRequest request) {
        String principal = request.caller().principal();
        StringBuilder out = new StringBuilder(Math.min(principal.length(), AuditEntry.MAX_ACTOR_LENGTH));
        principal.codePoints().forEach(c -> out.appendCodePoint(Character.isISOControl(c) ? 0xFFFD : c));
        String actor = out.length() > AuditEntry.MAX_ACTOR_LENGTH ? out.substring(0, AuditEntry.MAX_ACTOR_LENGTH)
                : out.toString();
        return actor.isBlank() ? "?" : actor;
    }

    /** The answer of {@code action} on {@code tenant} by the request's caller, logged. */
    static ApiResponse done(ApiRequest request, String action, String tenant, JsonNode result) {
        ObjectNode body = Nodes.object();
        body.put("action", action);
        body.put("tenant", tenant);
        body.put("actor", request.caller().principal());
        body.set("result", result);
        if (LOG.isInfoEnabled()) {
            ObjectNode line = Nodes.object();
            line.put("action", action);
            line.put("tenant", tenant);
            line.put("actor", request.caller().principal());
            LOG.info("admin mutation {}", line);
        }
        return ApiResponse.ok(body);
    }

    /**
     * Refuses the request unless its body names {@code tenant} in {@code "confirm"}.
     *
     * @param request the request
     * @param tenant  the tenant it acts on
     */
    static void requireConfirmation(ApiRequest request, String tenant) {
        JsonNode confirm = request.body().get("confirm");
        if (confirm == null || !confirm.isTextual() || !confirm.textValue().equals(tenant)) {
            throw new ApiException(400, "confirmation_required",
                    "this removes data: send {\"confirm\": \"<tenant id>\"} naming the tenant");
        }
    }

    /** Logs {@code action} on {@code tenant} by the request's caller, for answers other than {@link #done}. */
    static void logged(ApiRequest request, String action, String tenant) {
        if (LOG.isInfoEnabled()) {
            ObjectNode line = Nodes.object();
            line.put("action", action);
            line.put("tenant", tenant);
            line.put("actor", request.caller().principal());
            LOG.info("admin mutation {}", line);
        }
    }
}

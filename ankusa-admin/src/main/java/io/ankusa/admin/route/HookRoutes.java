package io.ankusa.admin.route;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ankusa.admin.json.HookJson;
import io.ankusa.admin.json.Nodes;
import io.ankusa.admin.json.QueueJson;
import io.ankusa.api.AttemptCursor;
import io.ankusa.api.AttemptPage;
import io.ankusa.api.AttemptQuery;
import io.ankusa.api.Hook;
import io.ankusa.api.StoredHook;
import io.ankusa.dispatch.DeliveryReplay;
import io.ankusa.dispatch.Replayer;
import io.ankusa.queue.Queue;
import java.util.Optional;

/**
 * One stored hook by tenant and seq: the hook with each delivery's state, its attempt history, and
 * the replay of one of its dead deliveries. The payload is shown only on request and only when
 * the access policy lets the caller read that tenant's payloads.
 */
final class HookRoutes {

    private final Queue queue;
    private final Replayer replayer;

    HookRoutes(Queue queue, Replayer replayer) {
        this.queue = queue;
        this.replayer = replayer;
    }

    ApiResponse hook(ApiRequest request) {
        String tenant = request.tenant();
        long seq = request.pathNumber("seq", 1, Long.MAX_VALUE);
        boolean payload = flag(request, "payload");
        if (payload && !request.caller().payloads().test(tenant)) {
            throw new ApiException(403, "payload_forbidden", "the access policy does not show this tenant's payloads");
        }
        StoredHook stored = queue.hook(tenant, seq)
                .orElseThrow(() -> ApiException.notFound("tenant '" + tenant + "' holds no hook " + seq));
        return ApiResponse.ok(HookJson.hook(stored, payload));
    }

    ApiResponse attempts(ApiRequest request) {
        String tenant = request.tenant();
        long seq = request.pathNumber("seq", 1, Long.MAX_VALUE);
        Hook hook = queue.hook(tenant, seq).flatMap(StoredHook::hook)
                .orElseThrow(() -> ApiException.notFound("tenant '" + tenant + "' holds no readable hook " + seq));
        AttemptQuery query = AttemptQuery.hook(tenant, hook.id()).limit(request.limit());
        Optional<String> after = request.param("after");
        if (after.isPresent()) {
            try {
                query = query.after(AttemptCursor.parse(after.get()));
            } catch (IllegalArgumentException e) {
                throw ApiException.badRequest(e.getMessage());
            }
        }
        AttemptPage page = queue.attempts(query);
        ObjectNode body = Nodes.object();
        body.put("tenant", tenant);
        body.put("seq", seq);
        body.put("hookId", hook.id());
        // A hook id is unique per source only: the page keeps the attempts of this seq.
        body.set("attempts", Nodes.array(page.attempts().stream().filter(a -> a.seq() == seq).toList(),
                QueueJson::attempt));
        Nodes.putCursor(body, "next", page.next().map(AttemptCursor::token));
        return ApiResponse.ok(body);
    }

    ApiResponse replay(ApiRequest request) {
        String tenant = request.tenant();
        long seq = request.pathNumber("seq", 1, Long.MAX_VALUE);
        int sink = sink(request);
        DeliveryReplay result = replayer.actingAs(Mutations.actor(request)).replayDelivery(tenant, seq, sink);
        return switch (result) {
            case REPLAYED -> {
                ObjectNode done = Nodes.object();
                done.put("seq", seq);
                done.put("sink", sink);
                done.put("replay", "replayed");
                yield Mutations.done(request, "replay", tenant, done);
            }
            case NOT_DEAD -> throw new ApiException(409, "not_dead", "delivery " + seq + "/" + sink + " is not dead");
            case NOT_FOUND -> throw ApiException.notFound(
                    "tenant '" + tenant + "' holds no delivery " + seq + "/" + sink);
        };
    }

    /** {@code sink} from the body ({@code {"sink": 1}}) or the query. */
    private static int sink(ApiRequest request) {
        JsonNode node = request.body().get("sink");
        if (node != null) {
            if (!node.isIntegralNumber() || !node.canConvertToInt() || node.intValue() < 0
                    || node.intValue() > 0xFFFF) {
                throw ApiException.badRequest("sink must be a number in 0..65535");
            }
            return node.intValue();
        }
        return request.param("sink").map(s -> Numbers.parseInt("sink", s, 0, 0xFFFF))
                .orElseThrow(() -> ApiException.badRequest("name the sink to replay: {\"sink\": <number>}"));
    }

    private static boolean flag(ApiRequest request, String name) {
        return request.param(name).map(v -> switch (v) {
            case "true" -> true;
            case "false" -> false;
            default -> throw ApiException.badRequest(name + " is true or false: '" + v + "'");
        }).orElse(false);
    }
}

package io.ankusa.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ankusa.api.AttemptPage;
import io.ankusa.api.AttemptQuery;
import io.ankusa.api.DeadLetter;
import io.ankusa.api.DeadLetterCursor;
import io.ankusa.api.DeadLetterPage;
import io.ankusa.api.DeadStats;
import io.ankusa.api.EndpointDisableReason;
import io.ankusa.api.EndpointSecret;
import io.ankusa.api.EndpointSpec;
import io.ankusa.api.EndpointStatus;
import io.ankusa.api.ErasureResult;
import io.ankusa.api.PurgeKind;
import io.ankusa.api.PurgeResult;
import io.ankusa.api.QuarantineResult;
import io.ankusa.api.QuarantinedDelivery;
import io.ankusa.api.QueueStats;
import io.ankusa.api.RegisteredEndpoint;
import io.ankusa.api.StoredHook;
import io.ankusa.api.TenantPage;
import io.ankusa.api.TenantQuery;
import io.ankusa.api.TenantStats;
import io.ankusa.api.events.EndpointState;
import io.ankusa.dispatch.DeliveryReplay;
import io.ankusa.dispatch.ReplayResult;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.Function;

/**
 * A {@link Node} over a running node's admin API ({@code --url}): each read is a call of a route of
 * docs/admin.md, its JSON turned back into the library's types ({@link ApiJson}). The API pages at
 * most 1 000 rows a call: a longer page of dead letters or attempts is read as consecutive calls that
 * follow the API's cursor. The endpoint and quarantine listings have no cursor, so a tenant's
 * endpoints are capped at the 100 its detail shows and a quarantine listing at 1 000 rows.
 */
final class ApiNode implements Node {

    /** The most rows one call of the API returns. */
    static final int API_MAX_LIMIT = 1_000;

    private final AdminClient client;
    private final Map<String, JsonNode> tenants = new HashMap<>();
    private JsonNode stats;

    private ApiNode(AdminClient client) {
        this.client = client;
    }

    static ApiNode connect(ApiOptions options) {
        return new ApiNode(new AdminClient(options.url().orElseThrow(), Tokens.clientToken(options)));
    }

    @Override
    public String where() {
        return client.base().toString();
    }

    @Override
    public String place() {
        return "at " + client.base();
    }

    @Override
    public String backend() {
        return "admin-api";
    }

    private JsonNode nodeStats() {
        if (stats == null) {
            stats = client.get("v1/stats");
        }
        return stats;
    }

    @Override
    public QueueStats stats() {
        JsonNode s = nodeStats().path("stats");
        return new QueueStats(s.path("pending").asLong(), s.path("scheduled").asLong(), s.path("inflight").asLong(),
                s.path("dead").asLong(), s.path("bytes").asLong(), s.path("archivePending").asLong(),
                s.path("quarantined").asLong());
    }

    @Override
    public long tenantCount() {
        return nodeStats().path("tenantsSeen").asLong();
    }

    @Override
    public Optional<Duration> oldestDueAge() {
        JsonNode millis = nodeStats().path("oldestDueMillis");
        return millis.isNumber() ? Optional.of(Duration.ofMillis(millis.asLong())) : Optional.empty();
    }

    private JsonNode tenant(String tenant) {
        JsonNode detail = tenants.get(tenant);
        if (detail == null) {
            try {
                detail = client.get("v1/tenants/" + AdminClient.segment(tenant));
            } catch (CommandFailure e) {
                if (e.exitCode() == ExitCode.UNKNOWN_TENANT) {
                    throw new CommandFailure(ExitCode.UNKNOWN_TENANT, "unknown tenant '" + tenant + "' at "
                            + client.base(), e);
                }
                throw e;
            }
            tenants.put(tenant, detail);
        }
        return detail;
    }

    @Override
    public OptionalLong requireTenant(String tenant) {
        tenant(tenant);
        return OptionalLong.empty();
    }

    @Override
    public TenantStats tenantStats(String tenant) {
        JsonNode s = tenant(tenant).path("stats");
        return new TenantStats(s.path("pending").asLong(), s.path("scheduled").asLong(), s.path("inflight").asLong(),
                s.path("dead").asLong(), s.path("bytes").asLong(), s.path("quarantined").asLong());
    }

    @Override
    public DeadStats deadStats(String tenant) {
        return new DeadStats(tenant(tenant).path("deadStats").path("dead").asLong());
    }

    @Override
    public List<EndpointStatus> endpoints(Optional<String> tenant, int limit) {
        JsonNode rows = tenant.isPresent() ? tenant(tenant.get()).path("endpoints")
                : client.get("v1/endpoints?limit=" + Math.min(limit, API_MAX_LIMIT)).path("endpoints");
        List<EndpointStatus> out = new ArrayList<>();
        for (JsonNode row : rows) {
            if (out.size() == limit) {
                break;
            }
            out.add(endpoint(row));
        }
        return out;
    }

    @Override
    public EndpointStatus enableEndpoint(String tenant, int sink) {
        return endpointMutation(tenant, sink, "enable");
    }

    @Override
    public EndpointStatus disableEndpoint(String tenant, int sink) {
        return endpointMutation(tenant, sink, "disable");
    }

    private EndpointStatus endpointMutation(String tenant, int sink, String action) {
        requireTenant(tenant);
        JsonNode answer = client.post("v1/tenants/" + AdminClient.segment(tenant) + "/endpoints/" + sink + "/"
                + action, AdminClient.object());
        return endpoint(answer.path("result"));
    }

    @Override
    public TenantPage tenants(TenantQuery query) {
        StringBuilder path = new StringBuilder("v1/tenants?limit=").append(query.limit());
        if (!query.prefix().isEmpty()) {
            path.append("&prefix=").append(AdminClient.segment(query.prefix()));
        }
        query.cursor().ifPresent(c -> path.append("&after=").append(AdminClient.segment(c.token())));
        Rows rows = rows(path.toString(), "tenants", query.limit(), Optional.empty());
        return new TenantPage(rows.mapped(ApiJson::tenant), rows.more());
    }

    @Override
    public Optional<StoredHook> hook(String tenant, long seq, boolean payload) {
        requireTenant(tenant);
        try {
            return Optional.of(ApiJson.hook(client.get(tenantPath(tenant) + "/hooks/" + seq + "?payload=" + payload),
                    payload));
        } catch (CommandFailure e) {
            if (e.exitCode() == ExitCode.UNKNOWN_TENANT) {
                return Optional.empty();
            }
            throw e;
        }
    }

    @Override
    public AttemptPage attempts(AttemptQuery query) {
        String path = tenantPath(query.tenant()) + "/attempts?"
                + query.hookId().map(h -> "hook=" + AdminClient.segment(h) + "&").orElse("");
        Rows rows = rows(path, "attempts", query.limit(), query.cursor().map(c -> c.token()));
        return new AttemptPage(rows.mapped(ApiJson::attempt), rows.more());
    }

    /**
     * The node's page is {@code GET /v1/dead} (no filter: every letter matches). Several tenants' page is the
     * merge, newest first as the queue orders it, of each tenant's page ({@code GET /v1/tenants/{t}/dead}).
     */
    @Override
    public DeadLetterPage deadLetters(List<String> tenants, Optional<DeadLetterCursor> after, int limit) {
        Optional<String> token = after.map(DeadLetterCursor::token);
        if (tenants.isEmpty()) {
            Rows rows = rows("v1/dead?", "letters", limit, token);
            return new DeadLetterPage(rows.mapped(ApiJson::deadLetter), rows.more());
        }
        List<DeadLetter> merged = new ArrayList<>();
        boolean more = false;
        for (String tenant : new java.util.LinkedHashSet<>(tenants)) {
            Rows rows = rows(tenantPath(tenant) + "/dead?", "letters", limit, token);
            merged.addAll(rows.mapped(ApiJson::deadLetter));
            more |= rows.more();
        }
        merged.sort(Comparator.comparingLong((DeadLetter d) -> d.deadAt().toEpochMilli())
                .thenComparingLong(DeadLetter::seq).thenComparingInt(DeadLetter::sink).reversed());
        more |= merged.size() > limit;
        return new DeadLetterPage(merged.subList(0, Math.min(limit, merged.size())), more);
    }

    @Override
    public ReplayResult replay(String tenant, Optional<String> hookId) {
        ObjectNode body = AdminClient.object();
        hookId.ifPresent(h -> body.put("hook", h));
        JsonNode result = client.post(tenantPath(tenant) + "/replay", body).path("result");
        return new ReplayResult(result.path("revived").asLong(), result.path("skippedNewer").asLong(),
                result.path("skippedGone").asLong());
    }

    @Override
    public PageRevival replayPage(Optional<DeadLetterCursor> after, int limit) {
        ObjectNode body = AdminClient.object().put("limit", limit);
        after.ifPresent(c -> body.put("after", c.token()));
        JsonNode answer = client.post("v1/replay/page", body);
        return new PageRevival(answer.path("revived").asInt(), answer.path("skipped").asInt(),
                ApiJson.text(answer, "next").map(DeadLetterCursor::parse));
    }

    /**
     * {@code 404 not_found} is {@link DeliveryReplay#NOT_FOUND}, {@code 409 not_dead} {@link DeliveryReplay#NOT_DEAD}.
     */
    @Override
    public DeliveryReplay replayDelivery(String tenant, long seq, int sink) {
        try {
            client.post(tenantPath(tenant) + "/hooks/" + seq + "/replay", AdminClient.object().put("sink", sink));
            return DeliveryReplay.REPLAYED;
        } catch (CommandFailure e) {
            if (e.exitCode() == ExitCode.UNKNOWN_TENANT) {
                return DeliveryReplay.NOT_FOUND;
            }
            if (e.exitCode() == ExitCode.USAGE && e.getMessage().endsWith("[not_dead]")) {
                return DeliveryReplay.NOT_DEAD;
            }
            throw e;
        }
    }

    @Override
    public List<QuarantinedDelivery> quarantine(Optional<String> tenant, int limit) {
        String path = tenant.map(t -> tenantPath(t) + "/quarantine").orElse("v1/quarantine") + "?limit="
                + Math.min(limit, API_MAX_LIMIT);
        List<QuarantinedDelivery> out = new ArrayList<>();
        client.get(path).path("quarantined").forEach(row -> out.add(ApiJson.quarantined(row)));
        return out;
    }

    @Override
    public QuarantineResult releaseQuarantine(String tenant) {
        return ApiJson.quarantineResult(client.post(tenantPath(tenant) + "/quarantine/release", AdminClient.object())
                .path("result"));
    }

    @Override
    public QuarantineResult purgeQuarantine(String tenant) {
        return ApiJson.quarantineResult(client.post(tenantPath(tenant) + "/quarantine/purge", AdminClient.object())
                .path("result"));
    }

    /** The command naming the tenant is the confirmation, as it is against a store. */
    @Override
    public PurgeResult purge(String tenant, Set<PurgeKind> kinds) {
        ObjectNode body = AdminClient.object().put("confirm", tenant);
        kinds.forEach(k -> body.withArray("kinds").add(k.name().toLowerCase(Locale.ROOT)));
        return ApiJson.purge(client.post(tenantPath(tenant) + "/purge", body).path("result"));
    }

    /** The command's {@code --yes} is the confirmation, as it is against a store. */
    @Override
    public ErasureResult erase(String tenant) {
        return ApiJson.erasure(client.post(tenantPath(tenant) + "/erase", AdminClient.object().put("confirm", tenant))
                .path("result"));
    }

    private static String tenantPath(String tenant) {
        return "v1/tenants/" + AdminClient.segment(tenant);
    }

    /**
     * Up to {@code limit} rows of the array {@code field} of {@code path} (ending in {@code ?} or {@code &}, or
     * holding its own {@code limit}), read a call of at most {@value #API_MAX_LIMIT} at a time from
     * {@code after} on, following each answer's {@code next}.
     */
    private Rows rows(String path, String field, int limit, Optional<String> after) {
        List<JsonNode> rows = new ArrayList<>();
        Optional<String> next = after;
        boolean ownLimit = path.contains("limit=");
        while (true) {
            String call = ownLimit ? path : path + "limit=" + Math.min(limit - rows.size(), API_MAX_LIMIT);
            JsonNode answer = client.get(call + next.map(c -> "&after=" + AdminClient.segment(c)).orElse(""));
            answer.path(field).forEach(rows::add);
            next = ApiJson.text(answer, "next");
            if (next.isEmpty() || rows.size() >= limit || ownLimit) {
                return new Rows(rows, next.isPresent());
            }
        }
    }

    /** Rows of one or more calls, and whether the last call said there are more. */
    private record Rows(List<JsonNode> rows, boolean more) {

        <T> List<T> mapped(Function<JsonNode, T> decoder) {
            return rows.stream().map(decoder).toList();
        }
    }

    static EndpointStatus endpoint(JsonNode row) {
        EndpointState state = EndpointState.valueOf(row.path("state").asText().toUpperCase(Locale.ROOT));
        Optional<EndpointDisableReason> reason = text(row, "reason").map(ApiNode::reason);
        return new EndpointStatus(row.path("tenant").asText(), row.path("sink").asInt(), state, reason,
                text(row, "disabledSince").map(Instant::parse), text(row, "failingSince").map(Instant::parse));
    }

    private static EndpointDisableReason reason(String code) {
        for (EndpointDisableReason reason : EndpointDisableReason.values()) {
            if (reason.code().equals(code)) {
                return reason;
            }
        }
        throw new CommandFailure(ExitCode.FAILURE, "the admin API named an unknown endpoint reason '" + code + "'");
    }

    private static Optional<String> text(JsonNode row, String name) {
        JsonNode value = row.path(name);
        return value.isTextual() ? Optional.of(value.textValue()) : Optional.empty();
    }

    @Override
    public RegisteredEndpoint addEndpoint(String tenant, EndpointSpec spec) {
        return registered(client.post(registry(tenant), specBody(spec)).path("result"));
    }

    @Override
    public RegisteredEndpoint updateEndpoint(String tenant, String id, EndpointSpec spec) {
        return registered(client.post(registry(tenant) + "/" + AdminClient.segment(id), specBody(spec))
                .path("result"));
    }

    @Override
    public RegisteredEndpoint rotateEndpoint(String tenant, String id, Duration overlap) {
        ObjectNode body = AdminClient.object();
        body.put("overlapSeconds", overlap.toSeconds());
        return registered(client.post(registry(tenant) + "/" + AdminClient.segment(id) + "/rotate", body)
                .path("result"));
    }

    @Override
    public void removeEndpoint(String tenant, String id) {
        client.post(registry(tenant) + "/" + AdminClient.segment(id) + "/remove", AdminClient.object());
    }

    private static String registry(String tenant) {
        return "v1/tenants/" + AdminClient.segment(tenant) + "/registry";
    }

    private static ObjectNode specBody(EndpointSpec spec) {
        ObjectNode body = AdminClient.object();
        spec.id().ifPresent(id -> body.put("id", id));
        body.put("url", spec.url().toString());
        body.put("description", spec.description());
        ArrayNode types = body.putArray("eventTypes");
        spec.eventTypes().forEach(types::add);
        body.put("rateLimit", spec.rateLimit());
        body.put("maxInflight", spec.maxInflight());
        ObjectNode headers = body.putObject("headers");
        spec.headers().forEach(headers::put);
        ObjectNode metadata = body.putObject("metadata");
        spec.metadata().forEach(metadata::put);
        return body;
    }

    /** A registered endpoint as the admin API writes it for an operator. */
    static RegisteredEndpoint registered(JsonNode e) {
        List<String> types = new ArrayList<>();
        e.path("eventTypes").forEach(t -> types.add(t.asText()));
        List<EndpointSecret> secrets = new ArrayList<>();
        for (JsonNode s : e.path("secrets")) {
            long expires = s.path("expiresAt").isTextual() ? Instant.parse(s.path("expiresAt").asText()).toEpochMilli()
                    : 0;
            secrets.add(new EndpointSecret(s.path("secret").asText(), expires));
        }
        return new RegisteredEndpoint(e.path("tenant").asText(), e.path("id").asText(), e.path("sink").asInt(),
                URI.create(e.path("url").asText()), e.path("description").asText(), types, e.path("rateLimit").asInt(),
                e.path("maxInflight").asInt(), pairs(e.path("headers")), pairs(e.path("metadata")), secrets,
                e.path("enabled").asBoolean());
    }

    private static Map<String, String> pairs(JsonNode object) {
        Map<String, String> out = new LinkedHashMap<>();
        object.properties().forEach(p -> out.put(p.getKey(), p.getValue().asText()));
        return out;
    }

    @Override
    public void close() {
        // Nothing to release: the client holds no connection between calls that needs closing here.
    }
}

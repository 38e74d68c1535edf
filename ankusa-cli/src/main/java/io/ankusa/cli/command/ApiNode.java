package io.ankusa.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ankusa.api.DeadStats;
import io.ankusa.api.EndpointDisableReason;
import io.ankusa.api.EndpointSecret;
import io.ankusa.api.EndpointSpec;
import io.ankusa.api.EndpointStatus;
import io.ankusa.api.QueueStats;
import io.ankusa.api.RegisteredEndpoint;
import io.ankusa.api.TenantStats;
import io.ankusa.api.events.EndpointState;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * A {@link Node} over a running node's admin API ({@code --url}): each read is one call of a route
 * of docs/admin.md, its JSON turned back into the library's types. The API pages at most 1 000 rows,
 * and a tenant's detail lists at most 100 of its endpoints, so larger limits are capped there.
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

package io.ankusa.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import io.ankusa.api.DeadStats;
import io.ankusa.api.EndpointDisableReason;
import io.ankusa.api.EndpointStatus;
import io.ankusa.api.QueueStats;
import io.ankusa.api.TenantStats;
import io.ankusa.api.events.EndpointState;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
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
    public void close() {
        // Nothing to release: the client holds no connection between calls that needs closing here.
    }
}

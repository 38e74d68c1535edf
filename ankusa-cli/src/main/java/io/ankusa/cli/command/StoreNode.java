package io.ankusa.cli.command;

import io.ankusa.api.DeadStats;
import io.ankusa.api.EndpointRegistry;
import io.ankusa.api.EndpointSpec;
import io.ankusa.api.EndpointStatus;
import io.ankusa.api.QueueStats;
import io.ankusa.api.RegisteredEndpoint;
import io.ankusa.api.TenantStats;
import io.ankusa.dispatch.http.RegistryResolver;
import io.ankusa.queue.Queue;
import io.ankusa.queue.ledger.LedgerSource;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/** A {@link Node} over the store at {@code --store}, opened as {@link StoreAccess#openQueue} opens it. */
final class StoreNode implements Node {

    private final AnkusaCommand options;
    private final Queue queue;

    StoreNode(AnkusaCommand options) {
        this.options = options;
        this.queue = StoreAccess.openQueue(options);
    }

    @Override
    public String where() {
        return options.store().toAbsolutePath().normalize().toString();
    }

    @Override
    public String backend() {
        return options.backend();
    }

    @Override
    public QueueStats stats() {
        return queue.stats();
    }

    @Override
    public long tenantCount() {
        return queue.tenantCount();
    }

    @Override
    public Optional<Duration> oldestDueAge() {
        return queue.oldestDueAge();
    }

    @Override
    public OptionalLong requireTenant(String tenant) {
        OptionalLong ord = LedgerSource.of(queue).tenantDirectory().ord(tenant);
        if (ord.isEmpty()) {
            throw new CommandFailure(ExitCode.UNKNOWN_TENANT, "unknown tenant '" + tenant + "' in " + options.store());
        }
        return ord;
    }

    @Override
    public TenantStats tenantStats(String tenant) {
        return queue.pendingForTenant(tenant);
    }

    @Override
    public DeadStats deadStats(String tenant) {
        return queue.deadForTenant(tenant);
    }

    @Override
    public List<EndpointStatus> endpoints(Optional<String> tenant, int limit) {
        return tenant.isPresent() ? queue.endpoints(tenant.get(), limit) : queue.endpoints(limit);
    }

    @Override
    public EndpointStatus enableEndpoint(String tenant, int sink) {
        return queue.actingAs(CliActor.name()).enableEndpoint(tenant, sink);
    }

    @Override
    public EndpointStatus disableEndpoint(String tenant, int sink) {
        return queue.actingAs(CliActor.name()).disableEndpoint(tenant, sink);
    }

    /** The registry with the dispatcher's address check, audited as the CLI. */
    private EndpointRegistry registry() {
        return RegistryResolver.of(queue).registry().actingAs(CliActor.name());
    }

    @Override
    public RegisteredEndpoint addEndpoint(String tenant, EndpointSpec spec) {
        return registry().add(tenant, spec);
    }

    @Override
    public RegisteredEndpoint updateEndpoint(String tenant, String id, EndpointSpec spec) {
        return registry().update(tenant, id, spec);
    }

    @Override
    public RegisteredEndpoint rotateEndpoint(String tenant, String id, Duration overlap) {
        return registry().rotate(tenant, id, overlap);
    }

    @Override
    public void removeEndpoint(String tenant, String id) {
        registry().remove(tenant, id);
    }

    @Override
    public void close() {
        queue.close();
    }
}

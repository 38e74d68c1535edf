package io.ankusa.cli.command;

import io.ankusa.api.AttemptPage;
import io.ankusa.api.AttemptQuery;
import io.ankusa.api.DeadLetterCursor;
import io.ankusa.api.DeadLetterPage;
import io.ankusa.api.DeadLetterQuery;
import io.ankusa.api.DeadStats;
import io.ankusa.api.EndpointRegistry;
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
import io.ankusa.dispatch.DeliveryReplay;
import io.ankusa.dispatch.ReplayPage;
import io.ankusa.dispatch.ReplayResult;
import io.ankusa.dispatch.Replayer;
import io.ankusa.dispatch.http.RegistryResolver;
import io.ankusa.queue.Queue;
import io.ankusa.queue.ledger.LedgerSource;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

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
    public String place() {
        return "in " + options.store();
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
            throw new CommandFailure(ExitCode.UNKNOWN_TENANT, "unknown tenant '" + tenant + "' " + place());
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
    public TenantPage tenants(TenantQuery query) {
        return queue.tenants(query);
    }

    @Override
    public Optional<StoredHook> hook(String tenant, long seq, boolean payload) {
        return queue.hook(tenant, seq);
    }

    @Override
    public AttemptPage attempts(AttemptQuery query) {
        return queue.attempts(query);
    }

    @Override
    public DeadLetterPage deadLetters(List<String> tenants, Optional<DeadLetterCursor> after, int limit) {
        DeadLetterQuery query = (tenants.isEmpty() ? DeadLetterQuery.all() : DeadLetterQuery.tenants(tenants))
                .limit(limit);
        return queue.deadLetters(after.isPresent() ? query.after(after.get()) : query);
    }

    @Override
    public ReplayResult replay(String tenant, Optional<String> hookId) {
        Replayer replayer = Replayer.of(queue).actingAs(CliActor.name());
        return hookId.isPresent() ? replayer.replayHook(tenant, hookId.get()) : replayer.replayTenant(tenant);
    }

    @Override
    public PageRevival replayPage(Optional<DeadLetterCursor> after, int limit) {
        Replayer replayer = Replayer.of(queue).actingAs(CliActor.name());
        ReplayPage page = after.isPresent() ? replayer.replayPage(after.get(), limit) : replayer.replayPage(limit);
        return new PageRevival(page.revived(), page.skipped(), page.next());
    }

    @Override
    public DeliveryReplay replayDelivery(String tenant, long seq, int sink) {
        return Replayer.of(queue).actingAs(CliActor.name()).replayDelivery(tenant, seq, sink);
    }

    @Override
    public List<QuarantinedDelivery> quarantine(Optional<String> tenant, int limit) {
        return tenant.isPresent() ? queue.quarantine(tenant.get(), limit) : queue.quarantine(limit);
    }

    @Override
    public QuarantineResult releaseQuarantine(String tenant) {
        return queue.actingAs(CliActor.name()).releaseQuarantine(tenant);
    }

    @Override
    public QuarantineResult purgeQuarantine(String tenant) {
        return queue.actingAs(CliActor.name()).purgeQuarantine(tenant);
    }

    @Override
    public PurgeResult purge(String tenant, Set<PurgeKind> kinds) {
        return queue.actingAs(CliActor.name()).purgeTenant(tenant, kinds);
    }

    @Override
    public ErasureResult erase(String tenant) {
        return queue.actingAs(CliActor.name()).eraseTenant(tenant);
    }

    @Override
    public void close() {
        queue.close();
    }
}

package io.ankusa.cli.command;

import io.ankusa.api.AttemptPage;
import io.ankusa.api.AttemptQuery;
import io.ankusa.api.DeadLetterCursor;
import io.ankusa.api.DeadLetterPage;
import io.ankusa.api.DeadStats;
import io.ankusa.api.EndpointRegistryException;
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
import io.ankusa.dispatch.ReplayResult;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * What the commands that work over {@code --url} read and change, whichever way the node is reached:
 * a store the command opens ({@link StoreNode}) or a running node's admin API ({@link ApiNode}). The
 * commands render what it returns, so the output is the same both ways.
 */
interface Node extends AutoCloseable {

    /**
     * Opens the node a command names: the admin API at {@code --url} when given, else the store at
     * {@code --store}.
     */
    static Node open(AnkusaCommand options, ApiOptions api) {
        return api.url().isPresent() ? ApiNode.connect(api) : new StoreNode(options);
    }

    /** Where the node is: the store's absolute path, or the admin API's URL. */
    String where();

    /** {@code in STORE} (the path as given) or {@code at URL}, for messages that say where something is not. */
    String place();

    /** The store's backend, or {@code admin-api} over {@code --url}. */
    String backend();

    /** The node's counters. */
    QueueStats stats();

    /** How many tenants the node has seen. */
    long tenantCount();

    /** The age of the oldest due delivery, as the queue's gauge reads it. */
    Optional<Duration> oldestDueAge();

    /**
     * Refuses a tenant the node has never seen ({@link ExitCode#UNKNOWN_TENANT}).
     *
     * @return the tenant's ordinal when the store is read directly; empty over the admin API, which does
     *         not show ordinals
     */
    OptionalLong requireTenant(String tenant);

    /** A tenant's counters. */
    TenantStats tenantStats(String tenant);

    /** A tenant's dead-letter count. */
    DeadStats deadStats(String tenant);

    /** The endpoints with a stored state: the node's, or one tenant's. */
    List<EndpointStatus> endpoints(Optional<String> tenant, int limit);

    /** Enables an endpoint and clears its failure history. */
    EndpointStatus enableEndpoint(String tenant, int sink);

    /** Disables an endpoint (reason {@code operator}). */
    EndpointStatus disableEndpoint(String tenant, int sink);

    /** One page of the tenants in id order, with their counters. */
    TenantPage tenants(TenantQuery query);

    /**
     * One stored hook, with its payload when {@code payload} (else the hook's payload bytes are not read
     * out, and only its length may be shown).
     */
    Optional<StoredHook> hook(String tenant, long seq, boolean payload);

    /** One page of a tenant's (or one hook id's) attempt history, newest first. */
    AttemptPage attempts(AttemptQuery query);

    /** One page of dead letters, newest first: the node's, or those of {@code tenants} when there are any. */
    DeadLetterPage deadLetters(List<String> tenants, Optional<DeadLetterCursor> after, int limit);

    /** Revives a tenant's dead letters, or one hook id's. */
    ReplayResult replay(String tenant, Optional<String> hookId);

    /** Revives one page of the node's dead letters, newest first. */
    PageRevival replayPage(Optional<DeadLetterCursor> after, int limit);

    /** Revives one dead delivery. */
    DeliveryReplay replayDelivery(String tenant, long seq, int sink);

    /** Up to {@code limit} quarantined deliveries: the node's, or one tenant's. */
    List<QuarantinedDelivery> quarantine(Optional<String> tenant, int limit);

    /** Puts a tenant's quarantined deliveries back to due. */
    QuarantineResult releaseQuarantine(String tenant);

    /** Deletes a tenant's quarantined deliveries. */
    QuarantineResult purgeQuarantine(String tenant);

    /** Removes a tenant's due deliveries, dead letters or both. */
    PurgeResult purge(String tenant, Set<PurgeKind> kinds);

    /** Erases every trace of a tenant. */
    ErasureResult erase(String tenant);

    /**
     * What reviving one page of dead letters did.
     *
     * @param revived how many dead rows became due again
     * @param skipped how many were revived or purged meanwhile
     * @param next    the cursor of the next page; empty after the oldest letter
     */
    record PageRevival(int revived, int skipped, Optional<DeadLetterCursor> next) {
    }
    /** Registers an endpoint of {@code tenant}; the registry's refusals as {@link EndpointRegistryException}. */
    RegisteredEndpoint addEndpoint(String tenant, EndpointSpec spec);

    /** Replaces a registered endpoint's fields but its sink and secrets. */
    RegisteredEndpoint updateEndpoint(String tenant, String id, EndpointSpec spec);

    /** Gives a registered endpoint a new secret; the old ones sign for {@code overlap}. */
    RegisteredEndpoint rotateEndpoint(String tenant, String id, Duration overlap);

    /** Removes a registered endpoint. */
    void removeEndpoint(String tenant, String id);

    @Override
    void close();
}

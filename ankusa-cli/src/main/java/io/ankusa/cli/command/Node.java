package io.ankusa.cli.command;

import io.ankusa.api.DeadStats;
import io.ankusa.api.EndpointRegistryException;
import io.ankusa.api.EndpointSpec;
import io.ankusa.api.EndpointStatus;
import io.ankusa.api.QueueStats;
import io.ankusa.api.RegisteredEndpoint;
import io.ankusa.api.TenantStats;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

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

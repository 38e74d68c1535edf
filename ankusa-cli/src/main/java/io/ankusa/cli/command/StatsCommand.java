package io.ankusa.cli.command;

import io.ankusa.api.DeadStats;
import io.ankusa.api.QueueStats;
import io.ankusa.api.TenantStats;
import io.ankusa.cli.console.Figures;
import io.ankusa.cli.console.Table;
import io.ankusa.queue.Queue;
import io.ankusa.queue.ledger.TenantDirectory;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * {@code ankusa stats}: the node's aggregate counters, the tenant count and the age of the oldest
 * due delivery; with {@code --tenant}, that tenant's counters (point reads, no scan).
 */
@Command(name = "stats", mixinStandardHelpOptions = true,
        description = "Show the store's counters: backlog, dead letters, bytes, tenants, oldest due age.")
final class StatsCommand implements Callable<Integer> {

    @ParentCommand
    AnkusaCommand root;

    @Option(names = "--tenant", paramLabel = "TENANT", description = "Show this tenant's counters instead.")
    String tenant;

    @Override
    public Integer call() {
        try (Queue queue = StoreAccess.openQueue(root)) {
            Table table = tenant == null ? aggregate(queue) : tenant(queue);
            root.spec.commandLine().getOut().print(table.render());
        }
        return ExitCode.OK.code();
    }

    private Table aggregate(Queue queue) {
        QueueStats stats = queue.stats();
        // The age comes from the active index, which may still hold markers of tenants whose rows
        // are gone (cleanup is lazy): with no due row counted there is nothing to age.
        Optional<Duration> oldest = stats.pending() + stats.scheduled() == 0 ? Optional.empty() : queue.oldestDueAge();
        return Table.keyValue()
                .row("store", root.store().toAbsolutePath().normalize() + " (" + root.backend() + ")")
                .row("tenants", Figures.count(queue.tenantCount()))
                .row("pending", Figures.count(stats.pending()))
                .row("scheduled", Figures.count(stats.scheduled()))
                .row("inflight", Figures.count(stats.inflight()))
                .row("dead", Figures.count(stats.dead()))
                .row("bytes", Figures.bytes(stats.bytes()))
                .row("archive pending", Figures.count(stats.archivePending()))
                .row("oldest due", oldest.map(Figures::age).orElse("nothing due"));
    }

    private Table tenant(Queue queue) {
        if (TenantDirectory.of(queue).ord(tenant).isEmpty()) {
            throw new CommandFailure(ExitCode.UNKNOWN_TENANT, "unknown tenant '" + tenant + "' in " + root.store());
        }
        TenantStats stats = queue.pendingForTenant(tenant);
        DeadStats dead = queue.deadForTenant(tenant);
        return Table.keyValue()
                .row("tenant", tenant + " (ordinal " + TenantDirectory.of(queue).ord(tenant).getAsLong() + ")")
                .row("pending", Figures.count(stats.pending()))
                .row("scheduled", Figures.count(stats.scheduled()))
                .row("inflight", Figures.count(stats.inflight()))
                .row("dead", Figures.count(dead.dead()))
                .row("bytes", Figures.bytes(stats.bytes()));
    }
}

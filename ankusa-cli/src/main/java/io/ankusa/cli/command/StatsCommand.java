package io.ankusa.cli.command;

import io.ankusa.api.DeadStats;
import io.ankusa.api.QueueStats;
import io.ankusa.api.TenantStats;
import io.ankusa.cli.console.Figures;
import io.ankusa.cli.console.Json;
import io.ankusa.cli.console.Table;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * {@code ankusa stats}: the node's aggregate counters, the tenant count and the age of the oldest
 * due delivery; with {@code --tenant}, that tenant's counters (point reads, no scan). Over {@code --url}
 * the same figures come from the admin API ({@code GET /v1/stats}, {@code GET /v1/tenants/{tenant}}).
 */
@Command(name = "stats", mixinStandardHelpOptions = true,
        header = "Show the store's counters and the oldest due age.",
        description = {
            "The backlog (pending, scheduled, inflight), dead letters, bytes, tenants and the age of the",
            "oldest due delivery, from point reads (no scan). With --tenant, that tenant's counters instead.",
            "With --json, one JSON object on one line (field names in docs/cli.md)."})
final class StatsCommand implements Callable<Integer> {

    @ParentCommand
    AnkusaCommand root;

    @Mixin
    ApiOptions api;

    @Option(names = "--tenant", paramLabel = "TENANT", description = "Show this tenant's counters instead.")
    String tenant;

    @Option(names = "--json", description = "Print one JSON object instead of the table.")
    boolean json;

    @Override
    public Integer call() {
        try (Node node = Node.open(root, api)) {
            OptionalLong ordinal = tenant == null ? OptionalLong.empty() : node.requireTenant(tenant);
            String text = json
                    ? (tenant == null ? aggregateJson(node) : tenantJson(node)) + System.lineSeparator()
                    : (tenant == null ? aggregate(node) : tenant(node, ordinal)).render();
            root.spec.commandLine().getOut().print(text);
        }
        return ExitCode.OK.code();
    }

    /**
     * The age of the oldest due delivery. It comes from the active index, which may still hold
     * markers of tenants whose rows are gone (cleanup is lazy): with no due row counted there is
     * nothing to age.
     */
    private static Optional<Duration> oldestDue(Node node, QueueStats stats) {
        return stats.pending() + stats.scheduled() == 0 ? Optional.empty() : node.oldestDueAge();
    }

    private static String aggregateJson(Node node) {
        QueueStats stats = node.stats();
        Optional<Duration> oldest = oldestDue(node, stats);
        Json json = new Json().beginObject()
                .member("store", node.where())
                .member("backend", node.backend())
                .member("tenants", node.tenantCount())
                .member("pending", stats.pending())
                .member("scheduled", stats.scheduled())
                .member("inflight", stats.inflight())
                .member("dead", stats.dead())
                .member("bytes", stats.bytes())
                .member("archivePending", stats.archivePending())
                .member("quarantined", stats.quarantined())
                .name("oldestDueMillis");
        if (oldest.isPresent()) {
            json.value(oldest.get().toMillis());
        } else {
            json.nullValue();
        }
        return json.endObject().text();
    }

    private String tenantJson(Node node) {
        TenantStats stats = node.tenantStats(tenant);
        DeadStats dead = node.deadStats(tenant);
        return new Json().beginObject()
                .member("tenant", tenant)
                .member("pending", stats.pending())
                .member("scheduled", stats.scheduled())
                .member("inflight", stats.inflight())
                .member("dead", dead.dead())
                .member("bytes", stats.bytes())
                .member("quarantined", stats.quarantined())
                .endObject().text();
    }

    private static Table aggregate(Node node) {
        QueueStats stats = node.stats();
        Optional<Duration> oldest = oldestDue(node, stats);
        return Table.keyValue()
                .row("store", node.where() + " (" + node.backend() + ")")
                .row("tenants", Figures.count(node.tenantCount()))
                .row("pending", Figures.count(stats.pending()))
                .row("scheduled", Figures.count(stats.scheduled()))
                .row("inflight", Figures.count(stats.inflight()))
                .row("dead", Figures.count(stats.dead()))
                .row("bytes", Figures.bytes(stats.bytes()))
                .row("archive pending", Figures.count(stats.archivePending()))
                .row("quarantined", Figures.count(stats.quarantined()) + (stats.quarantined() > 0
                        ? " (store corruption: see 'ankusa quarantine list')" : ""))
                .row("oldest due", oldest.map(Figures::age).orElse("nothing due"));
    }

    private Table tenant(Node node, OptionalLong ordinal) {
        TenantStats stats = node.tenantStats(tenant);
        DeadStats dead = node.deadStats(tenant);
        return Table.keyValue()
                .row("tenant", tenant + (ordinal.isPresent() ? " (ordinal " + ordinal.getAsLong() + ")" : ""))
                .row("pending", Figures.count(stats.pending()))
                .row("scheduled", Figures.count(stats.scheduled()))
                .row("inflight", Figures.count(stats.inflight()))
                .row("dead", Figures.count(dead.dead()))
                .row("bytes", Figures.bytes(stats.bytes()))
                .row("quarantined", Figures.count(stats.quarantined()));
    }
}

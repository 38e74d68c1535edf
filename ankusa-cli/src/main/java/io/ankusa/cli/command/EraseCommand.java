package io.ankusa.cli.command;

import io.ankusa.api.ErasureResult;
import io.ankusa.api.TenantStats;
import io.ankusa.cli.console.Figures;
import io.ankusa.cli.console.Table;
import io.ankusa.queue.Queue;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code ankusa erase --tenant T [--yes]}: erases every trace of a tenant ({@link Queue#eraseTenant}),
 * audited; without {@code --yes} it prints the tenant's counters and erases nothing. Over {@code --url},
 * {@code GET /v1/tenants/{tenant}} and, with {@code --yes}, {@code POST /v1/tenants/{tenant}/erase} with
 * the tenant named in {@code confirm}.
 */
@Command(name = "erase", mixinStandardHelpOptions = true,
        header = "Erase every trace of a tenant: its rows, hooks, keys and counters.",
        description =
                "The tenant's ordinal is never reused: the tenant id may come back later as a new tenant. Without "
                + "--yes, only show what the tenant holds. The erase is recorded in the audit trail and resumes where "
                + "it stopped when run again.")
final class EraseCommand implements Callable<Integer> {

    @ParentCommand
    AnkusaCommand root;

    @Spec
    CommandSpec spec;

    @Mixin
    ApiOptions api;

    @Option(names = "--tenant", paramLabel = "TENANT", required = true, description = "The tenant to erase.")
    String tenant;

    @Option(names = "--yes", description = "Erase for real; without it, only show what the tenant holds.")
    boolean yes;

    @Override
    public Integer call() {
        try (Node node = Node.open(root, api)) {
            node.requireTenant(tenant);
            if (!yes) {
                TenantStats stats = node.tenantStats(tenant);
                spec.commandLine().getOut().print(Table.keyValue()
                        .title("tenant " + tenant + " (nothing erased: add --yes to erase it)")
                        .row("pending", Figures.count(stats.pending()))
                        .row("scheduled", Figures.count(stats.scheduled()))
                        .row("inflight", Figures.count(stats.inflight()))
                        .row("dead", Figures.count(node.deadStats(tenant).dead()))
                        .row("bytes", Figures.bytes(stats.bytes()))
                        .render());
                return ExitCode.OK.code();
            }
            ErasureResult result = node.erase(tenant);
            spec.commandLine().getOut().print(Table.keyValue()
                    .title("erased tenant " + tenant)
                    .row("pending", Figures.count(result.pending()))
                    .row("scheduled", Figures.count(result.scheduled()))
                    .row("inflight", Figures.count(result.inflight()))
                    .row("dead", Figures.count(result.dead()))
                    .row("bytes", Figures.bytes(result.bytes()))
                    .row("hooks", Figures.count(result.hooks()))
                    .row("idempotency keys", Figures.count(result.dedupeKeys()))
                    .row("quarantined", Figures.count(result.quarantined()))
                    .render());
        }
        return ExitCode.OK.code();
    }
}

package io.ankusa.cli.command;

import io.ankusa.api.PurgeKind;
import io.ankusa.api.PurgeResult;
import io.ankusa.cli.console.Figures;
import io.ankusa.cli.console.Table;
import io.ankusa.queue.Queue;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code ankusa purge --tenant T --kinds pending,dead}: removes a tenant's due deliveries, dead
 * letters or both ({@link Queue#purgeTenant}), audited; inflight deliveries are never touched. Over
 * {@code --url}, {@code POST /v1/tenants/{tenant}/purge}, the tenant named in {@code confirm}.
 */
@Command(name = "purge", mixinStandardHelpOptions = true,
        header = "Remove a tenant's waiting deliveries or dead letters.",
        description =
                "--kinds pending, dead or both. Pending means first attempts and retries; inflight deliveries are "
                + "never touched. The purge is recorded in the audit trail.")
final class PurgeCommand implements Callable<Integer> {

    @ParentCommand
    AnkusaCommand root;

    @Spec
    CommandSpec spec;

    @Mixin
    ApiOptions api;

    @Option(names = "--tenant", paramLabel = "TENANT", required = true, description = "The tenant to purge.")
    String tenant;

    @Option(names = "--kinds", paramLabel = "KINDS", required = true, split = ",",
            description = "What to remove: pending, dead, or pending,dead.")
    List<String> kinds;

    @Override
    public Integer call() {
        Set<PurgeKind> what = kinds();
        try (Node node = Node.open(root, api)) {
            node.requireTenant(tenant);
            PurgeResult result = node.purge(tenant, what);
            spec.commandLine().getOut().print(Table.keyValue()
                    .title("purged tenant " + tenant)
                    .row("pending", Figures.count(result.pending()))
                    .row("scheduled", Figures.count(result.scheduled()))
                    .row("dead", Figures.count(result.dead()))
                    .row("bytes", Figures.bytes(result.bytes()))
                    .render());
        }
        return ExitCode.OK.code();
    }

    private Set<PurgeKind> kinds() {
        Set<PurgeKind> what = EnumSet.noneOf(PurgeKind.class);
        for (String kind : kinds) {
            try {
                what.add(PurgeKind.valueOf(kind.trim().toUpperCase(Locale.ROOT)));
            } catch (IllegalArgumentException e) {
                throw new ParameterException(spec.commandLine(), "--kinds takes pending and/or dead, not '" + kind
                        + "'");
            }
        }
        return what;
    }
}

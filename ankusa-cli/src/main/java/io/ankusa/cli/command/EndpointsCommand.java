package io.ankusa.cli.command;

import io.ankusa.api.EndpointStatus;
import io.ankusa.cli.console.Figures;
import io.ankusa.cli.console.Json;
import io.ankusa.cli.console.Table;
import io.ankusa.queue.Queue;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code ankusa endpoints list|enable|disable}: the endpoints (a tenant's sink) with a stored state
 * ({@link Queue#endpoints}): disabled — after a {@code 410}, after failing for
 * {@code endpoint.disable-after}, or by an operator — or active and failing since a time.
 * {@code enable} lets a disabled endpoint's waiting deliveries go out again; both are audited. Works over
 * {@code --url} too (a tenant's list then shows at most the 100 endpoints its admin API detail holds).
 * Its subcommands {@code add}, {@code update}, {@code rotate} and {@code remove} change the tenant's
 * registered endpoints ({@link RegistryCommands}). In store mode the changes are audited as
 * {@code cli:<os user>}.
 */
@Command(name = "endpoints", mixinStandardHelpOptions = true,
        subcommands = {RegistryCommands.Add.class, RegistryCommands.Update.class, RegistryCommands.Rotate.class,
            RegistryCommands.Remove.class},
        header = "List, enable, disable or register endpoints.",
        description = {
            "list: the endpoints that are disabled or failing (tenant, sink, state, reason, since, failing since).",
            "enable --tenant T --sink N: its waiting deliveries go out on the pipeline's next tick (audited).",
            "disable --tenant T --sink N: its deliveries wait, or are dead-lettered as endpoint.disabled-policy says "
            + "(audited).",
            "add, update, rotate, remove: a tenant's registered endpoints (see 'ankusa endpoints add --help')."})
final class EndpointsCommand implements Callable<Integer> {

    @ParentCommand
    AnkusaCommand root;

    @Mixin
    ApiOptions api;

    @Spec
    CommandSpec spec;

    @picocli.CommandLine.Parameters(index = "0", arity = "0..1", paramLabel = "ACTION",
            description = "list, enable or disable.")
    String action;

    @Option(names = "--tenant", paramLabel = "TENANT",
            description = "The tenant (required by enable and disable; filters list).")
    String tenant;

    @Option(names = "--sink", paramLabel = "N",
            description = "The sink number, 0..65535 (required by enable and disable).")
    Integer sink;

    @Option(names = "--limit", paramLabel = "N", defaultValue = "100",
            description = "Most endpoints listed (1..10000; default 100).")
    int limit;

    @Option(names = "--json", description = "Print one JSON object instead of the table.")
    boolean json;

    @Override
    public Integer call() {
        if (action == null) {
            throw new ParameterException(spec.commandLine(), "an action is needed: list, enable, disable, add, update, "
                    + "rotate or remove");
        }
        String what = action.toLowerCase(Locale.ROOT);
        if (!List.of("list", "enable", "disable").contains(what)) {
            throw new ParameterException(spec.commandLine(), "the action is list, enable or disable, not '" + action
                    + "'");
        }
        if (!what.equals("list") && (tenant == null || sink == null)) {
            throw new ParameterException(spec.commandLine(), what + " needs --tenant and --sink");
        }
        if (sink != null && (sink < 0 || sink > 65_535)) {
            throw new ParameterException(spec.commandLine(), "--sink must be 0..65535: " + sink);
        }
        if (limit < 1 || limit > 10_000) {
            throw new ParameterException(spec.commandLine(), "--limit must be 1..10000: " + limit);
        }
        PrintWriter out = spec.commandLine().getOut();
        try (Node node = Node.open(root, api)) {
            if (tenant != null) {
                node.requireTenant(tenant);
            }
            switch (what) {
                case "list" -> list(node, out);
                case "enable" -> changed("enabled", node.enableEndpoint(tenant, sink), out);
                default -> changed("disabled", node.disableEndpoint(tenant, sink), out);
            }
        }
        return ExitCode.OK.code();
    }

    private void list(Node node, PrintWriter out) {
        List<EndpointStatus> rows = node.endpoints(Optional.ofNullable(tenant), limit);
        if (json) {
            Json j = new Json().beginObject().name("endpoints").beginArray();
            rows.forEach(e -> member(j.beginObject(), e).endObject());
            out.println(j.endArray().endObject().text());
            return;
        }
        if (rows.isEmpty()) {
            out.println("every endpoint is active and none is failing");
            return;
        }
        Table table = Table.columns("tenant", "sink", "state", "reason", "since", "failing since")
                .leftAligned(0, 2, 3, 4, 5);
        for (EndpointStatus e : rows) {
            table.row(e.tenant(), Integer.toString(e.sink()), state(e), reason(e), time(e.disabledSince()),
                    time(e.failingSince()));
        }
        out.print(table.render());
        out.println(Figures.count(rows.size()) + " endpoints shown (an endpoint not listed is active and not failing)");
    }

    private static Json member(Json j, EndpointStatus e) {
        j.member("tenant", e.tenant()).member("sink", e.sink()).member("state", state(e)).member("reason", reason(e));
        e.disabledSince().ifPresentOrElse(t -> j.member("since", t.toString()), () -> j.name("since").nullValue());
        e.failingSince()
                .ifPresentOrElse(t -> j.member("failingSince", t.toString()), () -> j.name("failingSince").nullValue());
        return j;
    }

    private static String state(EndpointStatus e) {
        return e.state().name().toLowerCase(Locale.ROOT);
    }

    private static String reason(EndpointStatus e) {
        return e.reason().map(r -> r.code()).orElse("");
    }

    private static String time(Optional<Instant> t) {
        return t.map(Instant::toString).orElse("");
    }

    private void changed(String verb, EndpointStatus e, PrintWriter out) {
        if (json) {
            out.println(member(new Json().beginObject(), e).endObject().text());
            return;
        }
        out.print(Table.keyValue().title(verb + " endpoint " + e.sink() + " of tenant " + e.tenant())
                .row("state", state(e))
                .row("reason", reason(e).isEmpty() ? "-" : reason(e))
                .render());
    }
}

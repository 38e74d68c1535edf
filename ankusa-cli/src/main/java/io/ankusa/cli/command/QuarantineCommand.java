package io.ankusa.cli.command;

import io.ankusa.api.QuarantineResult;
import io.ankusa.api.QuarantinedDelivery;
import io.ankusa.cli.console.Figures;
import io.ankusa.cli.console.Json;
import io.ankusa.cli.console.Table;
import io.ankusa.queue.Queue;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code ankusa quarantine list|release|purge}: the deliveries the dispatcher moved aside because
 * their stored hook or delivery row does not decode ({@link Queue#quarantine}); {@code release}
 * puts a tenant's back to due after the operator restored the hooks, {@code purge} deletes them
 * (audited). Both are explicit: nothing leaves the quarantine on its own. Over {@code --url},
 * {@code GET /v1/quarantine} or {@code GET /v1/tenants/{tenant}/quarantine} (at most 1 000 rows: the
 * API has no cursor for it) and {@code POST /v1/tenants/{tenant}/quarantine/release|purge}.
 */
@Command(name = "quarantine", mixinStandardHelpOptions = true,
        header = "List, release or purge quarantined deliveries.",
        description = {
            "list: the quarantined deliveries (tenant, hook seq, sink, bytes, reason, when).",
            "release --tenant T: back to due as first attempts, after you restored the hooks (audited).",
            "purge --tenant T: delete them (audited). Nothing leaves the quarantine on its own."})
final class QuarantineCommand implements Callable<Integer> {

    @ParentCommand
    AnkusaCommand root;

    @Spec
    CommandSpec spec;

    @Mixin
    ApiOptions api;

    @picocli.CommandLine.Parameters(index = "0", paramLabel = "ACTION", description = "list, release or purge.")
    String action;

    @Option(names = "--tenant", paramLabel = "TENANT",
            description = "The tenant (required by release and purge; filters list).")
    String tenant;

    @Option(names = "--limit", paramLabel = "N", defaultValue = "100",
            description = "Most deliveries listed (1..10000; default 100).")
    int limit;

    @Option(names = "--json", description = "Print one JSON object instead of the table.")
    boolean json;

    @Override
    public Integer call() {
        String what = action.toLowerCase(Locale.ROOT);
        if (!List.of("list", "release", "purge").contains(what)) {
            throw new ParameterException(spec.commandLine(), "the action is list, release or purge, not '" + action
                    + "'");
        }
        if (!what.equals("list") && tenant == null) {
            throw new ParameterException(spec.commandLine(), what + " needs --tenant");
        }
        if (limit < 1 || limit > 10_000) {
            throw new ParameterException(spec.commandLine(), "--limit must be 1..10000: " + limit);
        }
        if (api.url().isPresent() && limit > ApiNode.API_MAX_LIMIT) {
            throw new ParameterException(spec.commandLine(), "--limit is at most " + ApiNode.API_MAX_LIMIT
                    + " with --url (the admin API lists the quarantine without a cursor): " + limit);
        }
        PrintWriter out = spec.commandLine().getOut();
        try (Node node = Node.open(root, api)) {
            if (tenant != null) {
                node.requireTenant(tenant);
            }
            switch (what) {
                case "list" -> list(node, out);
                case "release" -> moved("released", node.releaseQuarantine(tenant), out);
                default -> moved("purged", node.purgeQuarantine(tenant), out);
            }
        }
        return ExitCode.OK.code();
    }

    private void list(Node node, PrintWriter out) {
        List<QuarantinedDelivery> rows = node.quarantine(Optional.ofNullable(tenant), limit);
        if (json) {
            Json j = new Json().beginObject().name("quarantined").beginArray();
            for (QuarantinedDelivery d : rows) {
                j.beginObject().member("tenant", d.tenant()).member("seq", d.seq()).member("sink", d.sink())
                        .member("bytes", d.bytes()).member("reason", reason(d))
                        .member("quarantinedAt", d.quarantinedAt().toString())
                        .endObject();
            }
            out.println(j.endArray().endObject().text());
            return;
        }
        if (rows.isEmpty()) {
            out.println("nothing quarantined");
            return;
        }
        Table table = Table.columns("quarantined at", "tenant", "hook seq", "sink", "bytes", "reason")
                .leftAligned(1, 5);
        for (QuarantinedDelivery d : rows) {
            table.row(d.quarantinedAt().toString(), d.tenant(), Long.toString(d.seq()), Integer.toString(d.sink()),
                    Figures.bytes(d.bytes()), reason(d));
        }
        out.print(table.render());
        out.println(Figures.count(rows.size())
                + " quarantined deliveries shown (the stats' 'quarantined' counts them all)");
    }

    private static String reason(QuarantinedDelivery d) {
        return d.reason() == QuarantinedDelivery.Reason.HOOK_UNDECODABLE ? "hook does not decode"
                : "delivery row does not decode";
    }

    private void moved(String verb, QuarantineResult result, PrintWriter out) {
        if (json) {
            out.println(new Json().beginObject().member("tenant", result.tenant()).member(verb, result.rows())
                    .member("bytes", result.bytes()).endObject().text());
            return;
        }
        out.print(Table.keyValue().title(verb + " quarantined deliveries of tenant " + result.tenant())
                .row("deliveries", Figures.count(result.rows()))
                .row("bytes", Figures.bytes(result.bytes()))
                .render());
    }
}

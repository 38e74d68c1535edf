package io.ankusa.cli.command;

import io.ankusa.api.AttemptCursor;
import io.ankusa.api.AttemptPage;
import io.ankusa.api.AttemptQuery;
import io.ankusa.api.DeliveryAttempt;
import io.ankusa.cli.console.Figures;
import io.ankusa.cli.console.Json;
import io.ankusa.cli.console.Table;
import io.ankusa.cli.console.TerminalText;
import java.io.PrintWriter;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code ankusa attempts --tenant T [--hook ID] [--limit N] [--after CURSOR]}: one page of the
 * attempt history, newest first, with the cursor of the next page. One range scan of the history.
 * Over {@code --url}, {@code GET /v1/tenants/{tenant}/attempts}, a call per 1 000 attempts.
 */
@Command(name = "attempts", mixinStandardHelpOptions = true,
        header = "List a tenant's or a hook's delivery attempts, newest first.",
        description = {
            "Each attempt's start time, hook, sink, attempt number, outcome, HTTP status, latency, error class and "
                    + "reason,",
            "as recorded when it was settled (at most attempts.per-delivery per delivery, for attempts.retention).",
            "The last line gives the --after cursor of the next page.",
            "With --json, one JSON object on one line: the attempts and the next cursor (null on the last page)."})
final class AttemptsCommand implements Callable<Integer> {

    @ParentCommand
    AnkusaCommand root;

    @Spec
    CommandSpec spec;

    @Mixin
    ApiOptions api;

    @Option(names = "--tenant", paramLabel = "TENANT", required = true,
            description = "The tenant whose attempts to list.")
    String tenant;

    @Option(names = "--hook", paramLabel = "ID", description = "Only the attempts of this hook id (every sink).")
    String hook;

    @Option(names = "--limit", paramLabel = "N", defaultValue = "50",
            description = "Attempts per page, 1..10000 (default: ${DEFAULT-VALUE}).")
    int limit;

    @Option(names = "--after", paramLabel = "CURSOR",
            description = "Continue after this cursor (from the previous page).")
    String after;

    @Option(names = "--json", description = "Print one JSON object instead of the table.")
    boolean json;

    @Override
    public Integer call() {
        AttemptQuery query = query();
        PrintWriter out = spec.commandLine().getOut();
        try (Node node = Node.open(root, api)) {
            node.requireTenant(tenant);
            AttemptPage page = node.attempts(query);
            if (json) {
                out.println(json(page));
                return ExitCode.OK.code();
            }
            if (page.attempts().isEmpty()) {
                out.println("no attempts recorded");
                return ExitCode.OK.code();
            }
            Table table =
                    Table.columns("at", "hook", "sink", "attempt", "outcome", "status", "latency", "class", "reason")
                    .leftAligned(0, 1, 4, 7, 8);
            for (DeliveryAttempt a : page.attempts()) {
                table.row(a.at().toString(), TerminalText.escape(a.hookId()), Integer.toString(a.sink()),
                        Integer.toString(a.attempt()),
                        a.outcome().name().toLowerCase(Locale.ROOT) + (a.outOfOrder() ? " (out of order)" : ""),
                        a.status().isPresent() ? Integer.toString(a.status().getAsInt()) : "-",
                        Figures.millis(a.latency()),
                        a.errorClass().code(), TerminalText.escape(a.reason()));
            }
            out.print(table.render());
            out.println(Figures.count(page.attempts().size()) + " attempts"
                    + page.next().map(c -> "; next page: --after " + c.token()).orElse("; no more"));
        }
        return ExitCode.OK.code();
    }

    private static String json(AttemptPage page) {
        Json json = new Json().beginObject().name("attempts").beginArray();
        for (DeliveryAttempt a : page.attempts()) {
            json.beginObject()
                    .member("at", a.at().toString())
                    .member("tenant", a.tenantId())
                    .member("hook", a.hookId())
                    .member("seq", a.seq())
                    .member("sink", a.sink())
                    .member("attempt", a.attempt())
                    .member("outcome", a.outcome().name().toLowerCase(Locale.ROOT));
            if (a.status().isPresent()) {
                json.member("status", a.status().getAsInt());
            } else {
                json.member("status", (String) null);
            }
            json.member("latencyMicros", a.latency().toNanos() / 1000)
                    .member("errorClass", a.errorClass().code())
                    .member("reason", a.reason())
                    .member("outOfOrder", a.outOfOrder())
                    .endObject();
        }
        return json.endArray().member("next", page.next().map(AttemptCursor::token).orElse(null)).endObject().text();
    }

    private AttemptQuery query() {
        try {
            AttemptQuery query = (hook == null ? AttemptQuery.tenant(tenant) : AttemptQuery.hook(tenant, hook))
                    .limit(limit);
            return after == null ? query : query.after(AttemptCursor.parse(after));
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
    }
}

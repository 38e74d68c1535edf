package io.ankusa.cli.command;

import io.ankusa.api.TenantCursor;
import io.ankusa.api.TenantPage;
import io.ankusa.api.TenantQuery;
import io.ankusa.cli.console.Figures;
import io.ankusa.cli.console.Json;
import io.ankusa.cli.console.Table;
import io.ankusa.dispatch.Pipeline;
import io.ankusa.dispatch.report.Gauges;
import io.ankusa.dispatch.report.TenantPending;
import io.ankusa.dispatch.sink.SinkOutcome;
import io.ankusa.queue.Queue;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code ankusa tenants [--top N]}: how many tenants the store has seen (one point read) and the
 * tenants with the most pending deliveries (the dispatcher's {@code topTenantsByPending} gauge).
 * With any of {@code --prefix P}, {@code --after CURSOR} or {@code --limit N} it lists instead: one
 * page of the tenants in id order with their counters ({@link Queue#tenants}), and the cursor of
 * the next page. The options choose the form so that {@code tenants [--top N]} stays as it was.
 *
 * <p>Over {@code --url} the listing is {@code GET /v1/tenants}. The top tenants are the gauge of a
 * pipeline the command builds over the store it opens, so that form needs {@code --store}: over
 * {@code --url} it is refused ({@link ExitCode#USAGE}) rather than answered with other figures.
 */
@Command(name = "tenants", mixinStandardHelpOptions = true,
        header = "Show the tenant count and top tenants, or list the tenants.",
        description = {
            "Without --prefix, --after or --limit: how many tenants the store has seen, and the tenants with the",
            "most pending deliveries among the 10,000 that have waited longest (the dispatcher's gauge).",
            "With any of them: one page of the tenants in id order with their counters; the last line gives the",
            "--after cursor of the next page.",
            "With --json, one JSON object on one line (field names in docs/cli.md)."})
final class TenantsCommand implements Callable<Integer> {

    @ParentCommand
    AnkusaCommand root;

    @Spec
    CommandSpec spec;

    @Mixin
    ApiOptions api;

    @Option(names = "--top", paramLabel = "N",
            description = "How many of the tenants with the most pending deliveries to show, 0..100 (default: 10).")
    Integer top;

    @Option(names = "--prefix", paramLabel = "P",
            description = "List the tenants whose id starts with P, a page at a time.")
    String prefix;

    @Option(names = "--after", paramLabel = "CURSOR",
            description = "List the tenants after this cursor (from the previous page).")
    String after;

    @Option(names = "--limit", paramLabel = "N",
            description = "List the tenants, N per page, 1..1000 (100 when only --prefix or --after is given).")
    Integer limit;

    @Option(names = "--json", description = "Print one JSON object instead of the table.")
    boolean json;

    @Override
    public Integer call() {
        if (prefix != null || after != null || limit != null) {
            return list();
        }
        int shown = shown();
        if (api.url().isPresent()) {
            throw new ParameterException(spec.commandLine(), "with --url, tenants lists a page (--prefix, --after or "
                    + "--limit); the top tenants by pending are read from a store (--store)");
        }
        PrintWriter out = spec.commandLine().getOut();
        try (Queue queue = StoreAccess.openQueue(root)) {
            if (json) {
                out.println(json(queue, shown));
                return ExitCode.OK.code();
            }
            out.println("tenants " + Figures.count(queue.tenantCount()));
            if (shown > 0) {
                Gauges gauges = gauges(queue);
                if (gauges.topTenantsByPending().isEmpty()) {
                    out.println("no tenant has pending deliveries");
                } else {
                    Table table = Table.columns("tenant", "pending")
                            .title("Top tenants by pending (among the 10,000 waiting longest):");
                    gauges.topTenantsByPending().stream().limit(shown)
                            .forEach((TenantPending t) -> table.row(t.tenantId(), Figures.count(t.pending())));
                    out.print(table.render());
                }
            }
        }
        return ExitCode.OK.code();
    }

    private int shown() {
        int n = top == null ? 10 : top;
        if (n < 0 || n > 100) {
            throw new ParameterException(spec.commandLine(), "--top must be within 0..100: " + n);
        }
        return n;
    }

    /** One page of the listing. */
    private int list() {
        if (top != null) {
            throw new ParameterException(spec.commandLine(), "--top shows the top tenants; it does not go with "
                    + "--prefix, --after or --limit, which list the tenants");
        }
        TenantQuery query = query();
        PrintWriter out = spec.commandLine().getOut();
        try (Node node = Node.open(root, api)) {
            TenantPage page = node.tenants(query);
            if (json) {
                out.println(TenantList.json(page));
            } else {
                out.print(TenantList.table(page));
            }
        }
        return ExitCode.OK.code();
    }

    private TenantQuery query() {
        int n = limit == null ? TenantQuery.DEFAULT_LIMIT : limit;
        if (n < 1 || n > TenantQuery.MAX_LIMIT) {
            throw new ParameterException(spec.commandLine(),
                    "--limit must be within 1.." + TenantQuery.MAX_LIMIT + ": " + n);
        }
        try {
            TenantQuery query = TenantQuery.all().limit(n);
            if (prefix != null) {
                query = query.prefix(prefix);
            }
            return after == null ? query : query.after(TenantCursor.parse(after));
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
    }

    private static String json(Queue queue, int shown) {
        Json json = new Json().beginObject().member("tenants", queue.tenantCount()).name("top").beginArray();
        if (shown > 0) {
            gauges(queue).topTenantsByPending().stream().limit(shown).forEach((TenantPending t) ->
                    json.beginObject().member("tenant", t.tenantId()).member("pending", t.pending()).endObject());
        }
        return json.endArray().endObject().text();
    }

    /** The gauges, measured by a pipeline that is never started, so its sink is never called. */
    private static Gauges gauges(Queue queue) {
        try (Pipeline pipeline = Pipeline.builder(queue,
                delivery -> CompletableFuture.completedStage(SinkOutcome.retry("not started"))).manual()) {
            return pipeline.gauges();
        }
    }
}

package io.ankusa.cli.command;

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
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code ankusa tenants [--top N]}: how many tenants the store has seen (one point read) and the
 * tenants with the most pending deliveries (the dispatcher's {@code topTenantsByPending} gauge).
 */
@Command(name = "tenants", mixinStandardHelpOptions = true,
        header = "Show the tenant count and who has the most pending.",
        description = {
            "How many tenants the store has seen, and the tenants with the most pending deliveries among",
            "the 10,000 that have waited longest (the dispatcher's gauge).",
            "With --json, one JSON object on one line (field names in docs/cli.md)."})
final class TenantsCommand implements Callable<Integer> {

    @ParentCommand
    AnkusaCommand root;

    @Spec
    CommandSpec spec;

    @Option(names = "--top", paramLabel = "N", defaultValue = "10",
            description =
                    "How many of the tenants with the most pending deliveries to list, 0..100 (default: "
                    + "${DEFAULT-VALUE}).")
    int top;

    @Option(names = "--json", description = "Print one JSON object instead of the table.")
    boolean json;

    @Override
    public Integer call() {
        if (top < 0 || top > 100) {
            throw new ParameterException(spec.commandLine(), "--top must be within 0..100: " + top);
        }
        PrintWriter out = spec.commandLine().getOut();
        try (Queue queue = StoreAccess.openQueue(root)) {
            if (json) {
                out.println(json(queue));
                return ExitCode.OK.code();
            }
            out.println("tenants " + Figures.count(queue.tenantCount()));
            if (top > 0) {
                Gauges gauges = gauges(queue);
                if (gauges.topTenantsByPending().isEmpty()) {
                    out.println("no tenant has pending deliveries");
                } else {
                    Table table = Table.columns("tenant", "pending")
                            .title("Top tenants by pending (among the 10,000 waiting longest):");
                    gauges.topTenantsByPending().stream().limit(top)
                            .forEach((TenantPending t) -> table.row(t.tenantId(), Figures.count(t.pending())));
                    out.print(table.render());
                }
            }
        }
        return ExitCode.OK.code();
    }

    private String json(Queue queue) {
        Json json = new Json().beginObject().member("tenants", queue.tenantCount()).name("top").beginArray();
        if (top > 0) {
            gauges(queue).topTenantsByPending().stream().limit(top).forEach((TenantPending t) ->
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

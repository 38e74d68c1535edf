package io.ankusa.cli.command;

import io.ankusa.api.QueueConfig;
import io.ankusa.cli.console.Figures;
import io.ankusa.cli.console.ProgressBar;
import io.ankusa.cli.console.Table;
import io.ankusa.cli.demo.DemoIngest;
import io.ankusa.cli.demo.DemoPlan;
import io.ankusa.cli.demo.DemoStore;
import io.ankusa.queue.Queue;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.concurrent.Callable;
import java.util.stream.IntStream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code ankusa demo}: creates a store, ingests hooks for many tenants with a skew, and ends with a
 * table of what happened.
 */
@Command(name = "demo", mixinStandardHelpOptions = true, hidden = true,
        description = {
            "Create a store (replacing a previous demo's), ingest hooks over skewed tenants and show what happened.",
            "Progress goes to stderr, the final table to stdout."})
final class DemoCommand implements Callable<Integer> {

    private static final int TOP_TENANTS = 5;

    @ParentCommand
    AnkusaCommand root;

    @Spec
    CommandSpec spec;

    @Option(names = "--hooks", paramLabel = "N", defaultValue = "100000",
            description = "Hooks to ingest, one delivery each (default: ${DEFAULT-VALUE}).")
    long hooks;

    @Option(names = "--tenants", paramLabel = "T", defaultValue = "1000",
            description = "Tenants to spread them over, 1..1000000 (default: ${DEFAULT-VALUE}).")
    int tenants;

    @Option(names = "--skew", paramLabel = "S", defaultValue = "1.1",
            description = "Zipf exponent of the tenant draw; 0 is uniform (default: ${DEFAULT-VALUE}).")
    double skew;

    @Option(names = "--payload-bytes", paramLabel = "B", defaultValue = "256",
            description = "Size of each hook's JSON payload (default: ${DEFAULT-VALUE}).")
    int payloadBytes;

    @Option(names = "--seed", defaultValue = "42", description = "Seed of the tenant draw and of the simulated failures (default: ${DEFAULT-VALUE}).")
    long seed;

    @Override
    public Integer call() throws InterruptedException {
        DemoPlan plan = plan();
        Path directory = root.store();
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        prepare(directory, err);
        QueueConfig config = QueueConfig.builder(directory).backend(root.backend())
                .tenantsMax(Math.max(QueueConfig.DEFAULT_TENANTS_MAX, plan.tenants())).build();
        try (Queue queue = Queue.open(config)) {
            DemoIngest ingest = new DemoIngest(queue, plan);
            Duration ingestTime;
            ProgressBar bar = ProgressBar.start(err, "ingest", plan.hooks(), ingest::acknowledged);
            try {
                ingestTime = ingest.run();
            } finally {
                bar.close();
            }
            long[] perTenant = ingest.perTenant();
            Table summary = Table.keyValue()
                    .title("Ankusa demo: " + root.backend() + " store at " + directory.toAbsolutePath().normalize())
                    .row("ingested", Figures.count(plan.hooks()) + " hooks over " + Figures.count(plan.tenants())
                            + " tenants (skew " + plan.skew() + ") in " + Figures.duration(ingestTime)
                            + ", " + Figures.rate(plan.hooks(), ingestTime) + " (synced group commits)")
                    .row("tenants in store", Figures.count(queue.tenantCount()))
                    .row("pending after ingest", Figures.count(queue.stats().pending()));
            out.println();
            out.print(summary.render());
            out.println();
            out.print(topBacklog(queue, plan, perTenant).render());
        }
        return ExitCode.OK.code();
    }

    private DemoPlan plan() {
        if (hooks < 1) {
            throw new ParameterException(spec.commandLine(), "--hooks must be at least 1: " + hooks);
        }
        if (tenants < 1 || tenants > QueueConfig.DEFAULT_TENANTS_MAX) {
            throw new ParameterException(spec.commandLine(), "--tenants must be within 1..1000000: " + tenants);
        }
        if (!(skew >= 0 && skew <= 10)) {
            throw new ParameterException(spec.commandLine(), "--skew must be within 0..10: " + skew);
        }
        if (payloadBytes < 0 || payloadBytes > 1 << 20) {
            throw new ParameterException(spec.commandLine(), "--payload-bytes must be within 0..1048576: " + payloadBytes);
        }
        return new DemoPlan(hooks, tenants, skew, payloadBytes, seed);
    }

    private static void prepare(Path directory, PrintWriter err) {
        DemoStore.Previous previous;
        try {
            previous = DemoStore.prepare(directory);
        } catch (IllegalStateException e) {
            throw new CommandFailure(ExitCode.TARGET_EXISTS, e.getMessage());
        }
        if (previous == DemoStore.Previous.DEMO_REPLACED) {
            err.println("replacing the previous demo store at " + directory);
        }
    }

    private static Table topBacklog(Queue queue, DemoPlan plan, long[] perTenant) {
        Table table = Table.columns("tenant", "hooks", "share", "pending").title("Top tenants by backlog after ingest:");
        IntStream.range(0, plan.tenants()).boxed()
                .sorted(Comparator.comparingLong((Integer i) -> perTenant[i]).reversed())
                .limit(TOP_TENANTS)
                .forEach(i -> {
                    String name = plan.tenantName(i);
                    table.row(name, Figures.count(perTenant[i]), Figures.percent(perTenant[i] / (double) plan.hooks()),
                            Figures.count(queue.pendingForTenant(name).pending()));
                });
        return table;
    }
}

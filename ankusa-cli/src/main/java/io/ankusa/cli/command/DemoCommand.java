package io.ankusa.cli.command;

import io.ankusa.api.EndpointSettings;
import io.ankusa.api.QueueConfig;
import io.ankusa.api.QueueStats;
import io.ankusa.cli.console.Figures;
import io.ankusa.cli.console.ProgressBar;
import io.ankusa.cli.console.Table;
import io.ankusa.cli.demo.CountingSink;
import io.ankusa.cli.demo.DemoDelivery;
import io.ankusa.cli.demo.DemoIngest;
import io.ankusa.cli.demo.DemoPlan;
import io.ankusa.cli.demo.DemoStore;
import io.ankusa.cli.demo.SimulatedSink;
import io.ankusa.dispatch.http.AddressGuard;
import io.ankusa.dispatch.http.HttpSink;
import io.ankusa.dispatch.http.WebhookSecret;
import io.ankusa.dispatch.report.Gauges;
import io.ankusa.dispatch.report.TenantPending;
import io.ankusa.dispatch.sink.Sink;
import io.ankusa.dispatch.sink.Sinks;
import io.ankusa.queue.Queue;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code ankusa demo}: creates a store, ingests hooks for many tenants with a Zipf-like skew, runs
 * the dispatcher's pipeline against a simulated receiver (or a real URL through {@link HttpSink})
 * until every delivery is settled, and ends with a table of what happened.
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
        header = "Run a demo: ingest, deliver and show what happened.",
        description = {
            "Creates a store (replacing a previous demo's), ingests hooks over skewed tenants and delivers them "
                    + "through",
            "the pipeline to a simulated receiver that fails some attempts (or to --url).",
            "Progress goes to stderr, the table to stdout."})
final class DemoCommand implements Callable<Integer> {

    private static final int TOP_TENANTS = 5;

    /** Makes the signing secret when --url is given without --secret. */

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
            description = "Zipf exponent of the tenant draw, 0 (uniform)..10 (default: ${DEFAULT-VALUE}).")
    double skew;

    @Option(names = "--fail-rate", paramLabel = "F", defaultValue = "0.05",
            description = "Share of attempts the simulated receiver fails, 0..1 (default: ${DEFAULT-VALUE}).")
    double failRate;

    @Option(names = "--permanent-share", paramLabel = "P", defaultValue = "0.2",
            description =
                    "Share of those failures that are permanent (dead at once), 0..1 (default: ${DEFAULT-VALUE}).")
    double permanentShare;

    @Option(names = "--url", paramLabel = "URL",
            description = {"Deliver to this http(s) endpoint through the HTTP sink instead of the simulated receiver.",
                "The demo lets loopback through the SSRF guard (and says so); other private addresses stay refused."})
    URI url;

    @Option(names = "--secret", paramLabel = "whsec_…",
            description = "Signing secret for --url (Standard Webhooks); a random one is made and printed when absent.")
    String secret;

    @Option(names = "--payload-bytes", paramLabel = "B", defaultValue = "256",
            description = "Size of each hook's JSON payload (default: ${DEFAULT-VALUE}).")
    int payloadBytes;

    @Option(names = "--seed", defaultValue = "42",
            description =
                    "Seed of the tenant draw, the simulated failures and the retry jitter (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--max-time", paramLabel = "SECONDS", defaultValue = "600",
            description =
                    "Give up delivering after this long; what is left stays in the store (default: ${DEFAULT-VALUE}).")
    long maxSeconds;

    @Option(names = "--serve",
            description = "Then keep the demo's queue open and serve its admin API on --port until Ctrl-C (no dispatch "
                    + "after the demo's own).")
    boolean serve;

    @Option(names = "--port", paramLabel = "PORT", defaultValue = "" + ServeCommand.DEFAULT_PORT,
            description = "With --serve: the port on 127.0.0.1 (default: ${DEFAULT-VALUE}; 0 picks a free one).")
    int port;

    @Override
    public Integer call() throws InterruptedException {
        DemoPlan plan = plan();
        Path directory = root.store();
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        CountingSink sink = new CountingSink(sink(err));
        prepare(directory, err);
        long started = System.nanoTime();
        QueueConfig.Builder builder = QueueConfig.builder(directory).backend(root.backend())
                .tenantsMax(Math.max(QueueConfig.DEFAULT_TENANTS_MAX, plan.tenants()));
        if (url == null) {
            // The simulated sink fails each attempt at random, independently: a run of failures says
            // nothing about an endpoint's health, and there is no receiver to protect. So its
            // breaker probes after a second rather than 30, and no per-endpoint limit applies.
            builder.endpoints(EndpointSettings.DEFAULTS.withBreaker(EndpointSettings.DEFAULTS.breakerFailures(),
                    Duration.ofSeconds(1)).withMaxConcurrency(Integer.MAX_VALUE));
        }
        QueueConfig config = builder.build();
        try (Queue queue = Queue.open(config)) {
            DemoIngest ingest = new DemoIngest(queue, plan);
            Duration ingestTime = during(err, "ingest", plan.hooks(), ingest::acknowledged, ingest::run);

            DemoDelivery delivery = new DemoDelivery(queue, Sinks.builder().sink(DemoIngest.SINK, sink).build(),
                    DemoDelivery.DEMO_RETRIES, seed);
            Gauges peak = delivery.gauges();
            Duration deliveryTime = during(err, "deliver", plan.hooks(), () -> plan.hooks() - delivery.backlog(),
                    () -> delivery.run(Duration.ofSeconds(maxSeconds)));

            QueueStats end = queue.stats();
            long left = end.pending() + end.scheduled() + end.inflight();
            out.println();
            out.print(summary(plan, queue, sink, end, ingestTime, deliveryTime, delivery.gaugeTimes(),
                    Duration.ofNanos(System.nanoTime() - started)).render());
            out.println();
            out.print(topBacklog(queue, plan, peak).render());
            out.flush();
            if (left > 0) {
                throw new CommandFailure(ExitCode.FAILURE, "delivery did not finish within --max-time " + maxSeconds
                        + " s; " + Figures.count(left) + " deliveries are left in " + directory);
            }
            if (serve) {
                out.println();
                AdminServing.serveUntilShutdown(queue, directory.toAbsolutePath().normalize(),
                        new AdminServing.Listen("127.0.0.1", port, false, Optional.empty(), Optional.empty()),
                        root.backend() + ", the demo's queue; its pipeline has finished", out);
            }
        }
        return ExitCode.OK.code();
    }

    /** Work that a progress bar watches. */
    private interface Work {
        Duration run() throws InterruptedException;
    }

    private static Duration during(PrintWriter err, String label, long total, java.util.function.LongSupplier done,
            Work work) throws InterruptedException {
        ProgressBar bar = ProgressBar.start(err, label, total, done);
        try {
            return work.run();
        } finally {
            bar.close();
        }
    }

    private DemoPlan plan() {
        if (hooks < 1 || hooks > 100_000_000) {
            throw new ParameterException(spec.commandLine(), "--hooks must be within 1..100000000: " + hooks);
        }
        if (tenants < 1 || tenants > QueueConfig.DEFAULT_TENANTS_MAX) {
            throw new ParameterException(spec.commandLine(), "--tenants must be within 1..1000000: " + tenants);
        }
        if (!(skew >= 0 && skew <= 10)) {
            throw new ParameterException(spec.commandLine(), "--skew must be within 0..10: " + skew);
        }
        if (!(failRate >= 0 && failRate <= 1) || !(permanentShare >= 0 && permanentShare <= 1)) {
            throw new ParameterException(spec.commandLine(), "--fail-rate and --permanent-share must be within 0..1");
        }
        if (payloadBytes < 0 || payloadBytes > 1 << 20) {
            throw new ParameterException(spec.commandLine(), "--payload-bytes must be within 0..1048576: "
                    + payloadBytes);
        }
        if (maxSeconds < 1) {
            throw new ParameterException(spec.commandLine(), "--max-time must be at least 1 second: " + maxSeconds);
        }
        if (secret != null && url == null) {
            throw new ParameterException(spec.commandLine(), "--secret needs --url");
        }
        return new DemoPlan(hooks, tenants, skew, payloadBytes, seed);
    }

    private Sink sink(PrintWriter err) {
        if (url == null) {
            return new SimulatedSink(seed, failRate, permanentShare);
        }
        String serialized = secret;
        if (serialized == null) {
            serialized = WebhookSecret.generate().serialized();
            err.println("signing with a new secret (pass --secret to choose one): " + serialized);
        }
        // The demo's receiver is usually local: let loopback through the SSRF guard, on purpose and said so.
        err.println("the SSRF guard allows loopback (127.0.0.0/8, ::1) for this demo; private, link-local and"
                + " metadata addresses stay refused");
        AddressGuard demoGuard = AddressGuard.builder().allowRange("127.0.0.0/8").allowRange("::1/128")
                .allowHost("localhost").build();
        try {
            return HttpSink.builder(url, WebhookSecret.parse(serialized)).guard(demoGuard).build();
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), "--url/--secret: " + e.getMessage());
        }
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

    private Table summary(DemoPlan plan, Queue queue, CountingSink sink, QueueStats end, Duration ingestTime,
            Duration deliveryTime, List<Duration> gaugeTimes, Duration total) {
        long settled = plan.hooks() - (end.pending() + end.scheduled() + end.inflight());
        // A retry request on the last attempt is a dead letter, not a retry.
        long gaveUp = Math.max(0, end.dead() - sink.dead());
        long retried = sink.retried() - gaveUp;
        String receiver = url == null
                ? "simulated receiver failing " + Figures.percent(failRate) + " of attempts, "
                        + Figures.percent(permanentShare) + " of failures for good"
                : "HTTP sink to " + url;
        return Table.keyValue()
                .title("Ankusa demo: " + root.backend() + " store at " + root.store().toAbsolutePath().normalize()
                        + "; " + receiver)
                .row("ingested", Figures.count(plan.hooks()) + " hooks over " + Figures.count(queue.tenantCount())
                        + " tenants (Zipf skew " + plan.skew() + ") in " + Figures.duration(ingestTime) + ", "
                        + Figures.rate(plan.hooks(), ingestTime) + ", each acknowledged after a synced group commit")
                .row("delivered", Figures.count(sink.delivered()))
                .row("retried", Figures.count(retried) + " attempts failed and were scheduled again ("
                        + DemoDelivery.DEMO_RETRIES_TEXT + ")")
                .row("dead", Figures.count(end.dead()) + " (" + Figures.count(sink.dead()) + " permanent failures, "
                        + Figures.count(gaveUp) + " out of attempts)")
                .row("left", Figures.count(plan.hooks() - settled))
                .row("throughput", Figures.count(settled) + " deliveries settled in " + Figures.duration(deliveryTime)
                        + ", " + Figures.rate(settled, deliveryTime) + " ("
                        + Figures.count(sink.delivered() + sink.retried()
                        + sink.dead()) + " attempts)")
                .row("gauge tick", gaugeTime(gaugeTimes))
                .row("total time", Figures.duration(total));
    }

    private static String gaugeTime(List<Duration> times) {
        if (times.isEmpty()) {
            return "not measured";
        }
        List<Duration> sorted = times.stream().sorted().toList();
        return Figures.millis(sorted.get(sorted.size() / 2)) + " median, "
                + Figures.millis(sorted.get(sorted.size() - 1))
                + " max over " + sorted.size() + " reads of the gauges (7 counters, oldest due age, tenant count, "
                + "top tenants by pending)";
    }

    private static Table topBacklog(Queue queue, DemoPlan plan, Gauges peak) {
        Table table = Table.columns("tenant", "pending", "share", "dead at end")
                .title("Top tenants by backlog after ingest (the topTenantsByPending gauge):");
        for (TenantPending tenant : peak.topTenantsByPending().stream().limit(TOP_TENANTS).toList()) {
            table.row(tenant.tenantId(), Figures.count(tenant.pending()),
                    Figures.percent(tenant.pending() / (double) plan.hooks()),
                    Figures.count(queue.deadForTenant(tenant.tenantId()).dead()));
        }
        return table;
    }
}

package io.ankusa.bench.outbox;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The outbox bench's table: one line per comparison, the median rate of each side, and Ankusa /
 * PostgreSQL per backend; and the goal as one rule per backend and line.
 */
final class Report {

    /** One line of the table: what is compared, the Ankusa cell name per backend and the PostgreSQL cell. */
    private record Line(String phase, String tenants, String inFlight, Map<String, String> ankusa, String postgres,
            boolean ruled) {
    }

    private final List<String> backends;
    private final Map<String, List<Double>> rates;
    private final List<Line> lines = new ArrayList<>();

    Report(List<String> backends, Map<String, List<Double>> rates) {
        this.backends = backends;
        this.rates = rates;
        for (int writers : new int[] {2, 4}) {
            lines.add(new Line("synced ingest (PG: " + writers + " writer connections)",
                    String.format(Locale.ROOT, "%,d", PostgresOutboxBench.INGEST_TENANTS), "-",
                    perBackend(Cells::ingest), Cells.ingestPostgres(writers), writers == 2));
        }
        for (int tenants : new int[] {1, 10_000}) {
            for (int inFlight : new int[] {1_024, 256}) {
                lines.add(new Line("drain, no-op sink", String.format(Locale.ROOT, "%,d", tenants),
                        String.format(Locale.ROOT, "<= %,d", inFlight), perBackend(b -> Cells.drain(b, tenants, inFlight)),
                        Cells.drainPostgres(tenants, inFlight), true));
            }
        }
        // A phase left out of the run (ankusa.bench.pgPhases) has no line and no rule.
        lines.removeIf(line -> !rates.containsKey(line.postgres()));
    }

    private Map<String, String> perBackend(java.util.function.Function<String, String> name) {
        Map<String, String> cells = new java.util.LinkedHashMap<>();
        backends.forEach(b -> cells.put(b, name.apply(b)));
        return cells;
    }

    void print() {
        StringBuilder header = new StringBuilder("| phase | tenants | in flight |");
        StringBuilder rule = new StringBuilder("|---|---:|---:|");
        backends.forEach(b -> {
            header.append(" Ankusa ").append(b).append(" /s |");
            rule.append("---:|");
        });
        header.append(" PostgreSQL /s |");
        rule.append("---:|");
        backends.forEach(b -> {
            header.append(' ').append(b).append(" / PG |");
            rule.append("---:|");
        });
        System.out.println(header);
        System.out.println(rule);
        for (Line line : lines) {
            StringBuilder row = new StringBuilder("| " + line.phase() + " | " + line.tenants() + " | " + line.inFlight() + " |");
            backends.forEach(b -> row.append(String.format(Locale.ROOT, " %,.0f |", median(line.ankusa().get(b)))));
            row.append(String.format(Locale.ROOT, " %,.0f |", median(line.postgres())));
            backends.forEach(b -> row.append(String.format(Locale.ROOT, " %.2f |", ratio(line, b))));
            System.out.println(row);
        }
    }

    /** The goal as rules: Ankusa / PostgreSQL at least {@code goal} on every ruled line and backend. */
    List<String> rules(double goal) {
        List<String> verdicts = new ArrayList<>();
        for (Line line : lines) {
            if (!line.ruled()) {
                continue;
            }
            for (String backend : backends) {
                double ratio = ratio(line, backend);
                verdicts.add(String.format(Locale.ROOT, "%s: %s, %s tenants%s: Ankusa %s / PostgreSQL %.2f, goal >= %.1f",
                        ratio >= goal ? "PASS" : "FAIL", line.phase(), line.tenants(),
                        line.inFlight().equals("-") ? "" : ", " + line.inFlight() + " in flight", backend, ratio, goal));
            }
        }
        return verdicts;
    }

    private double ratio(Line line, String backend) {
        return median(line.ankusa().get(backend)) / median(line.postgres());
    }

    private double median(String cell) {
        List<Double> values = rates.getOrDefault(cell, List.of());
        if (values.isEmpty()) {
            return Double.NaN;
        }
        double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        int mid = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
    }
}

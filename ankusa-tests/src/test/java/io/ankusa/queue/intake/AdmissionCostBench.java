package io.ankusa.queue.intake;

import io.ankusa.api.Rate;
import io.ankusa.api.TenantOverloadedException;
import io.ankusa.api.TenantPolicy;
import io.ankusa.keys.Ordinals;
import io.ankusa.queue.admission.PolicyCache;
import io.ankusa.queue.deliveries.CounterDelta;
import io.ankusa.queue.deliveries.CounterField;
import io.ankusa.queue.deliveries.Counters;
import io.ankusa.queue.migration.StoreLayout;
import io.ankusa.store.Durability;
import io.ankusa.store.Store;
import io.ankusa.store.StoreOptions;
import io.ankusa.store.Stores;
import io.ankusa.store.WriteBatch;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The cost of ingest admission measured directly: {@link IngestAdmission#admit} called as the
 * writer calls it (a {@code beginBatch} every 256 hooks, one hook of one row of 300 bytes per
 * call, with the tenant's ordinal as the writer resolves it), over 1, 1 000 and 1 000 000 tenants
 * taken round-robin (the worst order for per-tenant state: a state of 65 536 tenants cleared
 * whole would, with a million tenants, miss on every hook and read its tenant's counters), with
 * the tenants' counters read from a real store of each backend (seeded
 * with every tenant's counters), so a first sight pays the counter read the writer pays.
 * Policies: {@code on} = pending-row and pending-byte limits and an ingest rate far above the
 * bench (every check runs, nothing is refused), plus the node-wide byte limit; {@code off} = the
 * default policy (no limit: an array read, no counter read). The figure is the calling thread's CPU time per call ({@code ThreadMXBean}; CPU time
 * does not count the time other processes hold the cores), median over the rounds, set against
 * the writer thread's measured CPU time per batched hook in {@code IngestBench} (13–23 µs).
 *
 * <p>An A/B run of the whole ingest path cannot show a cost under 5 % on a shared host: the spread
 * between runs of one cell is of that size. This measures the part admission adds instead.
 * Why not JMH: see docs/testing.md ("The cost of admission, measured directly"). The care JMH
 * would take is taken here: each cell runs in this JVM after a warm-up pass over every tenant and
 * warm-up rounds; every result is consumed (refusals counted and checked: none expected); rounds
 * are long (default 200 000 calls); the median of the rounds is reported with their spread.
 *
 * <p>System properties: {@code ankusa.bench.backends} (default rocksdb,lmdb),
 * {@code ankusa.bench.admissionTenants} (default 1,1000,1000000), {@code ankusa.bench.admissionCalls}
 * (calls per round, default 200 000), {@code ankusa.bench.admissionRounds} (measured rounds, default
 * 5), {@code ankusa.bench.dir}. Exits 1 when a hook was refused, or when admission with limits on
 * costs more than 5 % of 13 µs per hook, at any tenant count.
 */
public final class AdmissionCostBench {

    /** Hooks per writer batch (the writer's group commit). */
    private static final int BATCH = 256;
    private static final long ROW_BYTES = 300;
    /** The writer thread's CPU time per batched hook, lowest figure measured by IngestBench (ns). */
    static final double WRITER_NANOS_PER_HOOK = 13_000;
    /** The target: admission costs the ingest path under this share. */
    static final double TARGET_SHARE = 0.05;

    private static final TenantPolicy ON = TenantPolicy.DEFAULT.withMaxPendingRows(Long.MAX_VALUE / 2)
            .withMaxPendingBytes(Long.MAX_VALUE / 2).withIngestRate(new Rate(1e12, 1_000_000_000_000L));

    private AdmissionCostBench() {
    }

    private record Cell(String backend, int tenants, String policy, double[] nanosPerCall, long refused) {

        double median() {
            double[] sorted = nanosPerCall.clone();
            Arrays.sort(sorted);
            return sorted[sorted.length / 2];
        }
    }

    /** Runs the bench; see the class comment. */
    public static void main(String[] args) throws Exception {
        String backendList = System.getProperty("ankusa.bench.backends", "");
        List<String> backends = List.of((backendList.isBlank() ? "rocksdb,lmdb" : backendList).split(","));
        int[] tenantCounts = Arrays.stream(System.getProperty("ankusa.bench.admissionTenants", "1,1000,1000000")
                .split(",")).mapToInt(Integer::parseInt).toArray();
        int calls = Integer.getInteger("ankusa.bench.admissionCalls", 200_000);
        int rounds = Integer.getInteger("ankusa.bench.admissionRounds", 5);
        Path root = Files.createDirectories(Path.of(System.getProperty("ankusa.bench.dir", "target/bench")));
        int maxTenants = Arrays.stream(tenantCounts).max().orElse(1);
        String[] names = new String[maxTenants];
        for (int i = 0; i < maxTenants; i++) {
            names[i] = "tenant-" + i;
        }

        List<Cell> cells = new ArrayList<>();
        for (String backend : backends) {
            Path dir = Files.createTempDirectory(root, "admission-" + backend + "-");
            try (Store store = Stores.open(backend, StoreOptions.create(dir, StoreLayout.families()))) {
                seed(store, maxTenants);
                for (int tenants : tenantCounts) {
                    for (String policy : List.of("off", "on")) {
                        cells.add(measure(store, backend, tenants, policy, names, calls, rounds));
                    }
                }
            }
        }
        report(cells, calls, rounds);
    }

    /** Every tenant's counters as a tenant with 1 pending row of 300 bytes has them, and the aggregate's (their sum). */
    private static void seed(Store store, int tenants) {
        List<CounterDelta> deltas = new ArrayList<>();
        for (long ord = 1; ord <= tenants; ord++) {
            deltas.add(new CounterDelta(ord, CounterField.PENDING, 1));
            deltas.add(new CounterDelta(ord, CounterField.BYTES, ROW_BYTES));
            if (deltas.size() >= 20_000 || ord == tenants) {
                WriteBatch batch = new WriteBatch();
                Counters.appendTo(batch, deltas);
                store.commit(batch, Durability.ASYNC);
                deltas.clear();
            }
        }
        // Counters.appendTo merged the same deltas into the aggregate (ordinal 0).
        store.commit(new WriteBatch(), Durability.SYNC);
    }

    private static Cell measure(Store store, String backend, int tenants, String policy, String[] names,
            int calls, int rounds) {
        TenantPolicy tenantPolicy = policy.equals("on") ? ON : TenantPolicy.DEFAULT;
        IngestAdmission admission = new IngestAdmission(new PolicyCache(tenant -> tenantPolicy),
                ord -> Counters.read(store, ord),
                () -> Counters.read(store, Ordinals.AGGREGATE).bytes(), System::nanoTime,
                policy.equals("on") ? Long.MAX_VALUE / 2 : Long.MAX_VALUE);
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long refused = 0;
        int next = 0;
        // Warm-up: every tenant once (their state filled as far as it holds), then two rounds.
        long[] warmUp = new long[1];
        next = run(admission, names, tenants, next, Math.max(calls, tenants), warmUp);
        next = run(admission, names, tenants, next, 2 * calls, warmUp);
        refused += warmUp[0];
        double[] nanosPerCall = new double[rounds];
        for (int round = 0; round < rounds; round++) {
            long[] consumed = new long[1];
            long cpu = threads.getCurrentThreadCpuTime();
            next = run(admission, names, tenants, next, calls, consumed);
            nanosPerCall[round] = (threads.getCurrentThreadCpuTime() - cpu) / (double) calls;
            refused += consumed[0];
        }
        Cell cell = new Cell(backend, tenants, policy, nanosPerCall, refused);
        System.out.printf(Locale.ROOT, "%s %,d tenants admission %s: %.0f ns/hook (rounds %s)%n", backend, tenants,
                policy, cell.median(), Arrays.toString(Arrays.stream(nanosPerCall).mapToLong(Math::round).toArray()));
        return cell;
    }

    /** {@code n} calls, round-robin over the first {@code tenants} names from {@code next}; returns the next index. */
    private static int run(IngestAdmission admission, String[] names, int tenants, int next, int n, long[] consumed) {
        int i = next;
        for (int call = 0; call < n; call++) {
            if (call % BATCH == 0) {
                admission.beginBatch();
            }
            // Tenant i's ordinal is i + 1 (the writer resolves it for the batch before admission).
            Optional<TenantOverloadedException> refusal = admission.admit(names[i], i + 1L, 1, ROW_BYTES);
            if (refusal.isPresent()) {
                consumed[0]++;
            }
            i = i + 1 == tenants ? 0 : i + 1;
        }
        return i;
    }

    private static void report(List<Cell> cells, int calls, int rounds) {
        System.out.printf(Locale.ROOT, "%n## admission cost: %d rounds of %,d calls after warm-up, calling thread's CPU "
                + "time per call; writer CPU per batched hook %.0f-23 µs (IngestBench)%n%n", rounds, calls,
                WRITER_NANOS_PER_HOOK / 1000);
        System.out.println("| backend | tenants | admission | ns per hook (median) | rounds min..max | share of 13 µs "
                + "| share of 23 µs | on − off, share of 13 µs |");
        System.out.println("|---|---:|---|---:|---|---:|---:|---:|");
        List<String> failures = new ArrayList<>();
        for (Cell cell : cells) {
            double[] sorted = cell.nanosPerCall().clone();
            Arrays.sort(sorted);
            String delta = "";
            if (cell.policy().equals("on")) {
                Cell off = cells.stream().filter(c -> c.backend().equals(cell.backend()) && c.tenants() == cell.tenants()
                        && c.policy().equals("off")).findFirst().orElseThrow();
                double share = (cell.median() - off.median()) / WRITER_NANOS_PER_HOOK;
                delta = String.format(Locale.ROOT, "%.2f %%", 100 * share);
                if (cell.median() / WRITER_NANOS_PER_HOOK > TARGET_SHARE) {
                    failures.add(cell.backend() + " " + cell.tenants() + " tenants: admission costs "
                            + Math.round(cell.median()) + " ns per hook, over 5 % of 13 µs");
                }
            }
            System.out.printf(Locale.ROOT, "| %s | %,d | %s | %.0f | %.0f..%.0f | %.2f %% | %.2f %% | %s |%n",
                    cell.backend(), cell.tenants(), cell.policy(), cell.median(), sorted[0], sorted[sorted.length - 1],
                    100 * cell.median() / WRITER_NANOS_PER_HOOK, 100 * cell.median() / 23_000, delta);
            if (cell.refused() != 0) {
                failures.add(cell.backend() + " " + cell.tenants() + " tenants " + cell.policy() + ": " + cell.refused()
                        + " hooks refused (none expected)");
            }
        }
        failures.forEach(f -> System.out.println("FAIL " + f));
        System.out.println(failures.isEmpty() ? "PASS admission cost" : "");
        System.exit(failures.isEmpty() ? 0 : 1);
    }
}

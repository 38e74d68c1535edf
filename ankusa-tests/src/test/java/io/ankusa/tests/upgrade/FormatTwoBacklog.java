package io.ankusa.tests.upgrade;

import io.ankusa.queue.migration.FormatTwoWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A synthetic format-2 backlog of a given shape, for upgrade tests and the migration bench: one
 * single-sink hook per due, inflight and dead row, tenants drawn at random from {@code t0 … t<n-1>}
 * plus hooks with no tenant (filed under {@code default}), a quarter of the due rows retries due
 * after {@link StoreFixtures#EPOCH}, and archive obligations on the first {@code archive} hooks.
 * The same seed writes the same store.
 *
 * @param due      due rows
 * @param inflight inflight rows
 * @param dead     dead rows
 * @param archive  archive obligations (at most {@code due + inflight + dead})
 * @param tenants  distinct named tenants to draw from (default comes on top)
 * @param seed     the random seed
 */
public record FormatTwoBacklog(int due, int inflight, int dead, int archive, int tenants, long seed) {

    private static final long HOUR = 3_600_000;

    /** Checks the shape. */
    public FormatTwoBacklog {
        if (due < 0 || inflight < 0 || dead < 0 || tenants < 1 || archive < 0 || archive > due + inflight + dead) {
            throw new IllegalArgumentException("bad backlog shape");
        }
    }

    /** Index rows the migration visits. */
    public long rows() {
        return (long) due + inflight + dead + archive;
    }

    /** Writes the backlog as a new format-2 store in {@code directory}; returns the rows written. */
    public long write(String backend, Path directory) {
        SplittableRandom random = new SplittableRandom(seed);
        try (FormatTwoWriter w = FormatTwoWriter.create(backend, directory)) {
            List<Long> seqs = new ArrayList<>();
            for (int i = 0; i < due; i++) {
                long seq = w.hook(StoreFixtures.hook("due" + i, tenant(random), 1), StoreFixtures.EPOCH - 2 * HOUR);
                boolean retry = random.nextInt(4) == 0;
                long at = retry ? StoreFixtures.EPOCH + 1 + random.nextLong(HOUR) : StoreFixtures.EPOCH - random.nextLong(HOUR);
                w.due(seq, 1, at, retry ? 1 : 0);
                seqs.add(seq);
            }
            for (int i = 0; i < inflight; i++) {
                long seq = w.hook(StoreFixtures.hook("inflight" + i, tenant(random), 1), StoreFixtures.EPOCH - 2 * HOUR);
                w.inflight(seq, 1);
                seqs.add(seq);
            }
            for (int i = 0; i < dead; i++) {
                long seq = w.hook(StoreFixtures.hook("dead" + i, tenant(random), 1), StoreFixtures.EPOCH - 2 * HOUR);
                w.dead(seq, 1, StoreFixtures.EPOCH - random.nextLong(HOUR), "src", "dead" + i);
                seqs.add(seq);
            }
            for (int i = 0; i < archive; i++) {
                w.archive(seqs.get(i));
            }
            return w.rows();
        }
    }

    private String tenant(SplittableRandom random) {
        int t = random.nextInt(tenants + 1);
        return t == tenants ? null : "t" + t;
    }
}

package io.ankusa.dispatch.engine;

import io.ankusa.queue.ledger.DeliveryLedger;
import io.ankusa.queue.ledger.DueRead;
import io.ankusa.queue.ledger.DueReader;
import io.ankusa.queue.ledger.DueRow;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * Removes a tenant's stale active markers without ever leaving a due row without one: the
 * "delete, then verify" of TEN-1 §5, run by the pipeline only, after it claimed from the tenant.
 *
 * <p>Every cleanup takes a <em>horizon</em>: the earlier of now and the oldest stamp a writer of
 * due rows holds ({@link io.ankusa.queue.ledger.DueStamps#horizon()}), read before any of the
 * reads it guards. No marker of the horizon's second or later is deleted.
 *
 * <ol>
 *   <li>{@code first = firstDue(ord, earliest scanned second)}: the tenant's earliest due row from
 *       the earliest scanned marker second on, or none (one seek that starts there, so the
 *       tombstones claims left before it are not walked).</li>
 *   <li>The scanned markers of buckets before {@code first}'s bucket and before the horizon's
 *       second are stale: delete them, unsynced.</li>
 *   <li>Verify: look for due rows in the deleted buckets and put the marker of each bucket that
 *       holds one back (synced).</li>
 * </ol>
 *
 * <p>Why no interleaving loses a marker: writers (ingest, retry, revive, recovery, expansion)
 * commit a due row and its marker in one atomic batch and only ever put markers; this class is
 * the only deleter of a live tenant's markers (tenant erasure deletes an erased tenant's). A row
 * committed after step 2 brought its own marker, which nothing deletes. A
 * row committed before step 2 is visible to step 3, which restores its bucket's marker if step 2
 * deleted it. Step 3 checks every deleted bucket, not only the bucket of the tenant's earliest
 * row as the spec's wording has it: with the spec's single {@code firstDue}, two rows committed
 * between steps 1 and 2 into two different stale seconds would leave the later one without a
 * marker. The check costs the same single seek when nothing was committed meanwhile (the deleted
 * buckets hold no row, since they lie before {@code first}), and one more seek per deleted bucket
 * that does hold a row.
 *
 * <p>Why a crash between steps 2 and 3 loses no marker of a due row either (step 2's deletes may
 * be durable before step 3's puts are): every writer holds its stamp until its commit returns and
 * stamps its rows at or after it, so a row committed after the horizon was read is due at or after
 * the horizon, in a second step 2 keeps; a row committed before is seen by step 1, whose answer
 * keeps its second too. So step 3 finds nothing unless a row was written without a held stamp; it
 * stays as the net for such a writer (the cleanup's tests write such rows to exercise it).
 *
 * <p>{@link Interleaving} is the seam between the steps: the pipeline passes
 * {@link Interleaving#NONE}, a test commits a writer's row there.
 */
public final class MarkerCleanup {

    /** What runs between the steps (a test seam). */
    public interface Interleaving {

        /** Nothing between the steps. */
        Interleaving NONE = new Interleaving() {
        };

        /** Called after step 1 read the tenant's first due row, before step 2 deletes. */
        default void afterFirstDue(long ord) {
        }

        /**
         * Called after step 2 deleted tenant {@code ord}'s markers of {@code deleted} buckets, before step 3 verifies.
         */
        default void afterDelete(long ord, Collection<Long> deleted) {
        }
    }

    private final DeliveryLedger ledger;
    private final Interleaving interleaving;

    /** Cleanup over {@code ledger}. */
    public MarkerCleanup(DeliveryLedger ledger) {
        this(ledger, Interleaving.NONE);
    }

    /** Cleanup over {@code ledger} with {@code interleaving} run between its steps. */
    public MarkerCleanup(DeliveryLedger ledger, Interleaving interleaving) {
        this.ledger = Objects.requireNonNull(ledger, "ledger");
        this.interleaving = Objects.requireNonNull(interleaving, "interleaving");
    }

    /**
     * Steps 1–3 for tenant {@code ord}, whose markers of {@code scannedBuckets} the tick saw, with
     * the cleanup horizon {@code horizon} (epoch ms, read before the markers were). Returns the
     * tenant's earliest due row as far as the cleanup saw it
     * (from step 1, or an earlier row step 3 found).
     */
    public Optional<DueRow> clean(long ord, Collection<Long> scannedBuckets, long horizon) {
        return clean(Map.of(ord, scannedBuckets), horizon).get(ord);
    }

    /**
     * Steps 1–3 for every tenant of {@code scannedByTenant} (tenant → the marker buckets the tick
     * saw for it): step 1 for each, then one unsynced batch deleting every tenant's stale markers,
     * then step 3 for each tenant that had some. The argument above holds tenant by tenant, so
     * doing a step for many tenants at once changes nothing but the number of commits. Returns each
     * tenant's earliest due row as far as the cleanup saw it. {@code horizon} is the cleanup
     * horizon (epoch ms, read before the markers were).
     */
    public Map<Long, Optional<DueRow>> clean(Map<Long, ? extends Collection<Long>> scannedByTenant, long horizon) {
        Cleaning cleaning = prepare(scannedByTenant, Map.of(), horizon);
        if (!cleaning.stale().isEmpty()) {
            ledger.deleteMarkers(cleaning.stale());
        }
        return finish(cleaning);
    }

    /**
     * What step 1 found, for step 2's deletes and step 3's check.
     *
     * @param firsts each tenant's earliest due row as step 1 saw it
     * @param stale  each tenant's markers to delete (step 2), only tenants that have some
     */
    public record Cleaning(Map<Long, Optional<DueRow>> firsts, Map<Long, SortedSet<Long>> stale) {

        /** Copies the maps (and the stale sets). */
        public Cleaning {
            firsts = Map.copyOf(firsts);
            Map<Long, SortedSet<Long>> copied = new LinkedHashMap<>();
            stale.forEach((ord, buckets) -> copied.put(ord, Collections.unmodifiableSortedSet(new TreeSet<>(buckets))));
            stale = Collections.unmodifiableMap(copied);
        }
    }

    /**
     * Step 1 for every tenant of {@code scannedByTenant}, run <em>before</em> the claim of
     * {@code claiming} (rows by tenant) commits: each tenant's earliest due row that is not among
     * the rows being claimed (the claim leaves none of them due: each is claimed, quarantined or
     * already gone), and so the stale markers to delete. The caller then deletes them in the
     * claim's own batch ({@code DeliveryLedger.claimAll(rows, staleMarkers)}: step 2, one commit
     * for the claim and the deletes) and calls {@link #finish} (step 3). The argument above holds:
     * step 1 still reads before step 2 deletes, and step 3 reads after.
     *
     * @param scannedByTenant tenant → the marker buckets the tick saw for it
     * @param claiming        the rows the tick is about to claim, by tenant
     * @param horizon         the cleanup horizon (epoch milliseconds, at most now)
     * @return what step 1 found
     */
    public Cleaning prepare(Map<Long, ? extends Collection<Long>> scannedByTenant, Map<Long, List<DueRow>> claiming,
            long horizon) {
        return prepare(scannedByTenant, claiming, Map.of(), horizon);
    }

    /**
     * {@link #prepare(Map, Map, long)}, taking step 1's answer for the tenants of {@code readAhead}
     * from a read the tick made anyway instead of seeking again: each such read must start within
     * the tenant's earliest scanned second (at its start, or at a floor raised within it), and
     * every row it claims must be among the read's rows. The answer is then the first of those rows
     * it does not claim, else the row after them: what step 1 would read, as of the earlier read,
     * from where the read started. Neither difference is a risk to the argument above: a row
     * committed since the read is committed before step 2 deletes, and a row of that second before
     * the read's start keeps its marker unless step 2 deletes the whole second, which step 3 then
     * checks from its start; both are found by step 3, which puts their markers back.
     *
     * @param scannedByTenant tenant → the marker buckets the tick saw for it
     * @param claiming        the rows the tick is about to claim, by tenant
     * @param readAhead       tenant → its due rows from its earliest scanned second, and the row after them
     * @param horizon         the cleanup horizon (epoch milliseconds, at most now)
     * @return what step 1 found
     */
    public Cleaning prepare(Map<Long, ? extends Collection<Long>> scannedByTenant, Map<Long, List<DueRow>> claiming,
            Map<Long, DueRead> readAhead, long horizon) {
        try (DueReader reader = ledger.dueReader()) {
            return prepare(scannedByTenant, claiming, readAhead, horizon, reader);
        }
    }

    /**
     * {@link #prepare(Map, Map, Map, long)} with step 1's own seeks made through {@code reader} (the
     * tick's reader of its due reads, opened after the tick's mark and closed before its claim
     * commits: a row it does not see was committed since it opened, which step 3 finds).
     *
     * @param scannedByTenant tenant → the marker buckets the tick saw for it
     * @param claiming        the rows the tick is about to claim, by tenant
     * @param readAhead       tenant → its due rows from its earliest scanned second, and the row after them
     * @param horizon         the cleanup horizon (epoch milliseconds, at most now)
     * @param reader          reads step 1's first rows where {@code readAhead} has none
     * @return what step 1 found
     */
    public Cleaning prepare(Map<Long, ? extends Collection<Long>> scannedByTenant, Map<Long, List<DueRow>> claiming,
            Map<Long, DueRead> readAhead, long horizon, DueReader reader) {
        long current = bucketOf(horizon);
        Map<Long, Optional<DueRow>> firsts = new LinkedHashMap<>();
        Map<Long, SortedSet<Long>> staleByTenant = new LinkedHashMap<>();
        for (Map.Entry<Long, ? extends Collection<Long>> tenant : scannedByTenant.entrySet()) {
            long ord = tenant.getKey();
            List<DueRow> claimed = claiming.getOrDefault(ord, List.of());
            DueRead read = readAhead.get(ord);
            Optional<DueRow> first = read == null ? firstNotClaimed(reader, ord, tenant.getValue(), claimed)
                    : firstNotClaimed(read, claimed);
            firsts.put(ord, first);
            long keepFrom = Math.min(current, first.map(r -> bucketOf(r.at())).orElse(current));
            TreeSet<Long> stale = new TreeSet<>();
            for (long bucket : tenant.getValue()) {
                if (bucket < keepFrom) {
                    stale.add(bucket);
                }
            }
            if (!stale.isEmpty()) {
                staleByTenant.put(ord, stale);
            }
        }
        staleByTenant.keySet().forEach(interleaving::afterFirstDue);
        return new Cleaning(firsts, staleByTenant);
    }

    /**
     * Step 1 for one tenant: its earliest due row from the earliest scanned second on (one seek
     * that starts there, so the tombstones claims left before it are not walked) that is not one
     * of {@code claiming}. Reads at most one row more than it claims.
     */
    private static Optional<DueRow> firstNotClaimed(DueReader reader, long ord, Collection<Long> scanned,
            List<DueRow> claiming) {
        // Seek from the earliest scanned second, not the head of the tenant's range: exact for the
        // deletes, which only touch scanned seconds: a row in one of them is at or after the start.
        long fromAt = scanned.isEmpty() ? 0 : scanned.stream().mapToLong(Long::longValue).min().orElseThrow() * 1000;
        if (claiming.isEmpty()) {
            return reader.firstDue(ord, fromAt);
        }
        Set<RowKey> claimed = new HashSet<>();
        claiming.forEach(row -> claimed.add(RowKey.of(row)));
        for (DueRow row : reader.dueForTenant(ord, Long.MAX_VALUE, fromAt, claiming.size() + 1, Long.MAX_VALUE)) {
            if (!claimed.contains(RowKey.of(row))) {
                return Optional.of(row);
            }
        }
        return Optional.empty();
    }

    /** Step 1 from a read made already: its first row not claimed, else the row after its rows. */
    private static Optional<DueRow> firstNotClaimed(DueRead read, List<DueRow> claiming) {
        Set<RowKey> claimed = new HashSet<>();
        claiming.forEach(row -> claimed.add(RowKey.of(row)));
        for (DueRow row : read.rows()) {
            if (!claimed.contains(RowKey.of(row))) {
                return Optional.of(row);
            }
        }
        return read.next();
    }

    /** A due row's place in its tenant's range (what the claim goes by, whatever its size or kind). */
    private record RowKey(long at, long seq, int sink) {

        static RowKey of(DueRow row) {
            return new RowKey(row.at(), row.seq(), row.sink());
        }
    }

    /**
     * Step 3 after the stale markers of {@code cleaning} were deleted: puts back the marker of
     * every deleted bucket that holds a due row. Every tenant's check reads through one
     * {@link DeliveryLedger#dueReader()} opened here, after the deletes committed; the markers go
     * back after it is closed (a commit with a reader open on LMDB could not grow the map). Returns
     * each tenant's earliest due row as far as
     * the cleanup saw it (step 1's, or an earlier row step 3 found).
     *
     * @param cleaning what {@link #prepare} found, its stale markers deleted since
     * @return each tenant's earliest due row
     */
    public Map<Long, Optional<DueRow>> finish(Cleaning cleaning) {
        Map<Long, Optional<DueRow>> firsts = new LinkedHashMap<>(cleaning.firsts());
        if (cleaning.stale().isEmpty()) {
            return firsts;
        }
        cleaning.stale().forEach((ord, stale) -> interleaving.afterDelete(ord, List.copyOf(stale)));
        // One reader for every tenant's check, opened now (after the deletes committed: it sees
        // every row committed before them) and closed before the markers go back (a commit).
        Map<Long, List<Long>> occupied = new LinkedHashMap<>();
        try (DueReader reader = ledger.dueReader()) {
            cleaning.stale().forEach((ord, stale) -> occupiedSeconds(reader, ord, stale, occupied)
                    .ifPresent(row -> firsts.put(ord, Optional.of(row))));
        }
        occupied.forEach((ord, buckets) -> buckets.forEach(bucket -> ledger.restoreMarker(ord, bucket)));
        return firsts;
    }

    /**
     * Step 3's read: adds each deleted bucket of tenant {@code ord} that holds a due row to
     * {@code occupied} (their markers go back); returns the earliest such row.
     */
    private static Optional<DueRow> occupiedSeconds(DueReader reader, long ord, SortedSet<Long> deleted,
            Map<Long, List<Long>> occupied) {
        long last = (deleted.last() + 1) * 1000 - 1;
        long floor = deleted.first() * 1000;
        Optional<DueRow> earliest = Optional.empty();
        while (floor <= last) {
            List<DueRow> next = reader.dueForTenant(ord, last, floor, 1, Long.MAX_VALUE);
            if (next.isEmpty()) {
                break;
            }
            DueRow row = next.get(0);
            long bucket = bucketOf(row.at());
            if (deleted.contains(bucket)) {
                occupied.computeIfAbsent(ord, o -> new ArrayList<>()).add(bucket);
                if (earliest.isEmpty()) {
                    earliest = Optional.of(row);
                }
            }
            floor = (bucket + 1) * 1000;
        }
        return earliest;
    }

    /**
     * The marker bucket (second) of an epoch-millisecond time.
     *
     * @param at epoch milliseconds
     * @return the second it falls in
     */
    public static long bucketOf(long at) {
        return Math.floorDiv(at, 1000);
    }
}

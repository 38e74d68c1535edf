package io.ankusa.tests.queue;

import io.ankusa.api.Hook;
import io.ankusa.keys.ColumnFamilies;
import io.ankusa.keys.HookKey;
import io.ankusa.queue.ledger.ActiveTenant;
import io.ankusa.queue.ledger.Claim;
import io.ankusa.queue.ledger.ClaimedDelivery;
import io.ankusa.queue.ledger.DeadRow;
import io.ankusa.queue.ledger.DeliveryLedger;
import io.ankusa.queue.ledger.DueRow;
import io.ankusa.queue.ledger.InflightRow;
import io.ankusa.store.Durability;
import io.ankusa.store.KeyRange;
import io.ankusa.store.Scan;
import io.ankusa.store.WriteBatch;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Drives every transition of the queue from an action sequence. Actions pick their target at
 * apply time ("the k-th claimed delivery"), so a generated sequence stays meaningful when
 * shrinking drops actions. Remembers only what the dispatcher would hold in memory: the claimed
 * deliveries and orphans not yet settled.
 */
public final class TransitionDriver implements AutoCloseable {

    private final QueueUnderTest q;
    private final List<ClaimedDelivery> claimed = new ArrayList<>();
    private final List<InflightRow> orphans = new ArrayList<>();
    private int hooks;

    /** A driver over a fresh queue on {@code backend} in {@code directory}, archive on. */
    public TransitionDriver(String backend, Path directory) {
        this.q = QueueUnderTest.open(backend, directory, b -> b.archive(true));
    }

    /** The queue under test. */
    public QueueUnderTest queue() {
        return q;
    }

    private DeliveryLedger ledger() {
        return q.ledger();
    }

    private long now() {
        return q.clock().millis();
    }

    /** Ingests a hook for tenant {@code t<tenant>} ({@code tenant < 0}: no tenant, filed under default). */
    public void ingest(int tenant, int sinkCount, int payloadBytes) {
        int[] sinks = new int[sinkCount];
        for (int i = 0; i < sinkCount; i++) {
            sinks[i] = i * 7;
        }
        Hook.Builder b = Hook.builder().id("h" + hooks++).sourceId("s").payload(new byte[payloadBytes]).sinks(sinks);
        if (tenant >= 0) {
            b.tenantId("t" + tenant);
        }
        q.ingest(b.build());
    }

    /** Claims up to {@code n} due rows of the k-th active tenant. */
    public void claim(int k, int n) {
        List<ActiveTenant> active = ledger().activeTenants(now(), 4096);
        if (active.isEmpty()) {
            return;
        }
        long ord = active.get(k % active.size()).ord();
        List<DueRow> due = ledger().dueForTenant(ord, now(), 0, n, Long.MAX_VALUE);
        Claim claim = ledger().claim(ord, due);
        claimed.addAll(claim.claimed());
        orphans.addAll(claim.orphans());
    }

    /** Settles the k-th claimed delivery as delivered. */
    public void deliver(int k) {
        take(k).ifPresent(d -> ledger().delivered(d.row()));
    }

    /** Settles the k-th claimed delivery as a retry {@code delayMs} from now (negative: already due). */
    public void retry(int k, long delayMs) {
        take(k).ifPresent(d -> ledger().retry(d, Math.max(0, now() + delayMs), "HTTP 503"));
    }

    /** Dead-letters the k-th claimed delivery. */
    public void deadLetter(int k) {
        take(k).ifPresent(d -> ledger().dead(d, "gave up"));
    }

    /** Drops the k-th orphan. */
    public void dropOrphan(int k) {
        if (!orphans.isEmpty()) {
            ledger().dropOrphan(orphans.remove(k % orphans.size()));
        }
    }

    /** Deletes the k-th stored hook's envelope (as reclaim or corruption would), making its rows orphans. */
    public void loseHook(int k) {
        List<byte[]> keys = new ArrayList<>();
        try (Scan scan = q.store().scan(ColumnFamilies.HOOKS, KeyRange.of(HookKey.FAMILY.between().from(),
                HookKey.FAMILY.between().to()))) {
            scan.forEachRemaining(kv -> keys.add(kv.key()));
        }
        if (!keys.isEmpty()) {
            q.store().commit(new WriteBatch().delete(ColumnFamilies.HOOKS, keys.get(k % keys.size())), Durability.SYNC);
        }
    }

    /** Revives up to {@code n} dead rows of the k-th tenant that has any. */
    public void revive(int k, int n) {
        Map<Long, List<DeadRow>> dead = deadByTenant(n);
        if (dead.isEmpty()) {
            return;
        }
        List<Long> ords = new ArrayList<>(dead.keySet());
        long ord = ords.get(k % ords.size());
        ledger().revive(ord, dead.get(ord));
    }

    private Map<Long, List<DeadRow>> deadByTenant(int n) {
        Map<Long, List<DeadRow>> out = new TreeMap<>();
        for (long ord = 1; ord <= q.queue().tenantCount(); ord++) {
            List<DeadRow> rows = ledger().deadRows(ord, n);
            if (!rows.isEmpty()) {
                out.put(ord, rows);
            }
        }
        return out;
    }

    /** Boot recovery without a restart: every inflight row back to due; the dispatcher forgets its claims. */
    public void recover() {
        ledger().recoverInflight();
        claimed.clear();
        orphans.clear();
    }

    /** Closes and reopens the queue (recovery runs at open). */
    public void reopen() {
        q.reopen();
        claimed.clear();
        orphans.clear();
    }

    /** Adds a delivery to sink {@code sink} of the k-th stored hook, if it has none for that sink. */
    public void expand(int k, int sink) {
        List<Long> seqs = new ArrayList<>();
        try (Scan scan = q.store().scan(ColumnFamilies.HOOKS, KeyRange.of(HookKey.FAMILY.between().from(),
                HookKey.FAMILY.between().to()))) {
            scan.forEachRemaining(kv -> seqs.add(HookKey.decode(kv.key()).seq()));
        }
        if (!seqs.isEmpty()) {
            q.engine().expansion().expand(seqs.get(k % seqs.size()), List.of(sink));
        }
    }

    /** Purges up to {@code n} due rows of the k-th tenant. */
    public void purgeDue(int k, int n) {
        long tenants = q.queue().tenantCount();
        if (tenants > 0) {
            q.engine().purge().purgeDueChunk(1 + k % tenants, n);
        }
    }

    /** Purges up to {@code n} dead rows of the k-th tenant. */
    public void purgeDead(int k, int n) {
        long tenants = q.queue().tenantCount();
        if (tenants > 0) {
            q.engine().purge().purgeDeadChunk(1 + k % tenants, n);
        }
    }

    /** Settles (or drops) the k-th oldest archive obligation. */
    public void archive(int k, boolean settle) {
        List<Long> seqs = q.engine().archive().oldest(64);
        if (!seqs.isEmpty()) {
            long seq = seqs.get(k % seqs.size());
            if (settle) {
                q.engine().archive().settle(seq);
            } else {
                q.engine().archive().drop(seq);
            }
        }
    }

    /** The pipeline's marker cleanup for every tenant the active scan returns. */
    public void cleanMarkers() {
        MarkerCleanup.runTick(ledger(), now());
    }

    /** Moves the clock. */
    public void tick(long ms) {
        q.clock().advance(ms);
    }

    private Optional<ClaimedDelivery> take(int k) {
        return claimed.isEmpty() ? Optional.empty() : Optional.of(claimed.remove(k % claimed.size()));
    }

    @Override
    public void close() {
        q.close();
    }
}

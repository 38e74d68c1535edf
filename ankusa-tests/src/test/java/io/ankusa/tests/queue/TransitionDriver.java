package io.ankusa.tests.queue;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.api.ArchiveOutcome;
import io.ankusa.api.Hook;
import io.ankusa.api.PurgeKind;
import io.ankusa.api.Receipt;
import io.ankusa.keys.ArchiveKey;
import io.ankusa.keys.ColumnFamilies;
import io.ankusa.keys.DeliveryKey;
import io.ankusa.keys.HookKey;
import io.ankusa.keys.KeySpan;
import io.ankusa.queue.ArchiveCompactor;
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
import io.ankusa.testkit.property.Action;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.random.RandomGenerator;

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

    /** The dedupe window of the driven queue. */
    public static final Duration DEDUPE_WINDOW = Duration.ofSeconds(5);

    /** Model of the dedupe entries: "tenant/key" to the original receipt and when it expires. */
    private final Map<String, Receipt> dedupeReceipts = new HashMap<>();
    private final Map<String, Long> dedupeExpiry = new HashMap<>();
    /** Hooks deleted behind the queue's back by {@link #loseHook}: the only hooks allowed to be missing while owed. */
    private final Set<Long> lost = new HashSet<>();
    private final Set<Long> damaged = new HashSet<>();
    private long highestSeq;

    /** A driver over a fresh queue on {@code backend} in {@code directory}, archive on. */
    public TransitionDriver(String backend, Path directory) {
        this.q = QueueUnderTest.open(backend, directory, b -> b.archive(true).dedupeWindow(DEDUPE_WINDOW));
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
        highestSeq = Math.max(highestSeq, q.ingest(b.build()).seq());
    }

    /** The event types the driver's hooks and endpoints use ({@code prefix.*} patterns match the first two). */
    public static final List<String> EVENT_TYPES = List.of("invoice.paid", "invoice.sent", "user.created");

    /** A random typed ingest of one of three tenants, for an action-sequence check. */
    public static Action<TransitionDriver> typedIngest(RandomGenerator r) {
        int tenant = r.nextInt(3);
        String type = EVENT_TYPES.get(r.nextInt(EVENT_TYPES.size()));
        return Action.of("ingest t" + tenant + " typed " + type, d -> d.ingestTyped(tenant, type));
    }

    /** A random endpoint registration of one of three tenants, with one of four event-type filters. */
    public static Action<TransitionDriver> endpointRegistration(RandomGenerator r) {
        int tenant = r.nextInt(3);
        List<String> types = switch (r.nextInt(4)) {
            case 0 -> List.of("invoice.*");
            case 1 -> List.of("invoice.paid", "user.created");
            case 2 -> List.of("user.*");
            default -> List.of();
        };
        return Action.of("register endpoint of t" + tenant + " for " + types, d -> d.registerEndpoint(tenant, types));
    }

    /** A random removal of one of a tenant's first four registered endpoints. */
    public static Action<TransitionDriver> endpointRemoval(RandomGenerator r) {
        int tenant = r.nextInt(3);
        int k = r.nextInt(4);
        return Action.of("remove endpoint #" + k + " of t" + tenant, d -> d.removeEndpoint(tenant, k));
    }

    /**
     * Ingests a hook of event type {@code type} for tenant {@code t<tenant>} and checks that it
     * was written for exactly the tenant's endpoints subscribed to the type, as the registry
     * lists them just before: its receipt's sinks, its delivery rows.
     */
    public void ingestTyped(int tenant, String type) {
        String name = "t" + tenant;
        List<Integer> expected = q.queue().endpointRegistry().endpoints(name).stream()
                .filter(e -> e.subscribes(type)).map(e -> e.sink()).toList();
        Hook hook = Hook.builder().id("e" + hooks++).sourceId("s").tenantId(name).eventType(type).payload("{}")
                .build();
        Receipt receipt = q.ingest(hook);
        assertThat(receipt.seq()).isGreaterThan(highestSeq);
        highestSeq = receipt.seq();
        assertThat(receipt.sinks()).as("fan-out of %s for %s", type, name).contains(expected);
        Set<Long> rows = seqs(ColumnFamilies.DELIVERIES, DeliveryKey.FAMILY.between(), k -> DeliveryKey.decode(k)
                .seq());
        assertThat(rows.contains(receipt.seq())).as("delivery rows of a hook sent to %s", expected)
                .isEqualTo(!expected.isEmpty());
    }

    /** Registers an endpoint for tenant {@code t<tenant>} subscribed to {@code types}. */
    public void registerEndpoint(int tenant, List<String> types) {
        q.queue().endpointRegistry().add("t" + tenant, io.ankusa.api.EndpointSpec
                .of(java.net.URI.create("https://t" + tenant + ".example/hooks")).withEventTypes(types));
    }

    /** Removes the k-th live endpoint of tenant {@code t<tenant>}, if it has one. */
    public void removeEndpoint(int tenant, int k) {
        List<io.ankusa.api.RegisteredEndpoint> live = q.queue().endpointRegistry().endpoints("t" + tenant);
        if (!live.isEmpty()) {
            q.queue().endpointRegistry().remove("t" + tenant, live.get(k % live.size()).id());
        }
    }

    /**
     * Ingests a hook with idempotency key {@code key} for tenant {@code t<tenant>}, and checks the
     * dedupe model: within the window of the first acceptance the original receipt comes back,
     * after it a new hook is queued.
     */
    public void ingestKeyed(int tenant, int sinkCount, String key) {
        int[] sinks = new int[sinkCount];
        for (int i = 0; i < sinkCount; i++) {
            sinks[i] = i * 7;
        }
        Hook.Builder b = Hook.builder().id("k" + hooks++).sourceId("s").payload("{}").sinks(sinks).idempotencyKey(key);
        if (tenant >= 0) {
            b.tenantId("t" + tenant);
        }
        Hook hook = b.build();
        Receipt receipt = q.ingest(hook);
        String entry = hook.tenant() + "/" + key;
        Long expiry = dedupeExpiry.get(entry);
        if (expiry != null && now() < expiry) {
            assertThat(receipt).as("a repeat of %s within the window", entry).isEqualTo(dedupeReceipts.get(entry));
        } else {
            assertThat(receipt.seq()).as("a new hook for %s", entry).isGreaterThan(highestSeq);
            assertThat(receipt.hookId()).isEqualTo(hook.id());
            highestSeq = receipt.seq();
            dedupeReceipts.put(entry, receipt);
            dedupeExpiry.put(entry, now() + DEDUPE_WINDOW.toMillis());
        }
    }

    /** The writer's sweep of expired dedupe keys, up to {@code n}. */
    public void sweepDedupe(int n) {
        long now = now();
        q.engine().writer().submitChore(() -> q.engine().idempotencyKeys().sweep(now, n)).join();
    }

    /** Purges the k-th tenant through the public API. */
    public void purgeTenant(int k, Set<PurgeKind> kinds) {
        long tenants = q.queue().tenantCount();
        if (tenants > 0) {
            String tenant = q.name(1 + k % tenants).orElseThrow();
            q.queue().purgeTenant(tenant, kinds);
        }
    }

    /**
     * One archive compaction round of up to {@code n} obligations; the archiver archives a hook
     * whose seq is 0 mod 3, rejects 1 mod 3 and fails on 2 mod 3 when {@code failing}.
     */
    public void compactArchive(int n, boolean failing) {
        ArchiveCompactor.manual(q.queue(), hook -> switch ((int) (hook.seq() % 3)) {
            case 0 -> ArchiveOutcome.ARCHIVED;
            case 1 -> ArchiveOutcome.REJECTED;
            default -> {
                if (failing) {
                    throw new java.io.IOException("archive unavailable");
                }
                yield ArchiveOutcome.ARCHIVED;
            }
        }).compact(n);
    }

    /** One reclaim round over up to {@code n} cleared markers. */
    public void reclaim(int n) {
        q.engine().reclaimer().reclaim(n);
    }

    /** Reclaim until the markers are spent, then check its liveness: every hook left is still owed. */
    public void reclaimAll() {
        q.engine().housekeeping().reclaim();
        Set<Long> owed = new TreeSet<>(seqs(ColumnFamilies.DELIVERIES, DeliveryKey.FAMILY.between(), k -> DeliveryKey.decode(k).seq()));
        owed.addAll(seqs(ColumnFamilies.INDEX, ArchiveKey.FAMILY.between(), k -> ArchiveKey.decode(k).seq()));
        assertThat(owed).as("hooks left after reclaim are owed").containsAll(
                seqs(ColumnFamilies.HOOKS, HookKey.FAMILY.between(), k -> HookKey.decode(k).seq()));
    }

    /** Reclaim's safety: every hook a delivery row or an archive obligation needs is still stored (unless lost on purpose). */
    public void assertNoOwedHookReclaimed() {
        Set<Long> owed = new TreeSet<>(seqs(ColumnFamilies.DELIVERIES, DeliveryKey.FAMILY.between(), k -> DeliveryKey.decode(k).seq()));
        owed.addAll(seqs(ColumnFamilies.INDEX, ArchiveKey.FAMILY.between(), k -> ArchiveKey.decode(k).seq()));
        owed.removeAll(lost);
        assertThat(seqs(ColumnFamilies.HOOKS, HookKey.FAMILY.between(), k -> HookKey.decode(k).seq()))
                .as("hooks still owed").containsAll(owed);
    }

    private Set<Long> seqs(String family, KeySpan span, Function<byte[], Long> seqOf) {
        Set<Long> out = new TreeSet<>();
        try (Scan scan = q.store().scan(family, KeyRange.of(span.from(), span.to()))) {
            scan.forEachRemaining(kv -> out.add(seqOf.apply(kv.key())));
        }
        return out;
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
            byte[] key = keys.get(k % keys.size());
            q.store().commit(new WriteBatch().delete(ColumnFamilies.HOOKS, key), Durability.SYNC);
            lost.add(HookKey.decode(key).seq());
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
        seqs.removeAll(damaged); // expansion reads the envelope: a damaged one is refused as corruption
        if (!seqs.isEmpty()) {
            q.engine().expansion().expand(seqs.get(k % seqs.size()), List.of(sink));
        }
    }

    /** Overwrites the k-th stored hook with bytes that do not decode (the next claim quarantines its rows). */
    public void damageHook(int k) {
        List<byte[]> keys = new ArrayList<>();
        try (Scan scan = q.store().scan(ColumnFamilies.HOOKS, KeyRange.of(HookKey.FAMILY.between().from(),
                HookKey.FAMILY.between().to()))) {
            scan.forEachRemaining(kv -> keys.add(kv.key()));
        }
        if (!keys.isEmpty()) {
            byte[] key = keys.get(k % keys.size());
            byte[] garbage = new byte[24];
            java.util.Arrays.fill(garbage, (byte) 0xFF);
            q.store().commit(new WriteBatch().put(ColumnFamilies.HOOKS, key, garbage), Durability.SYNC);
            damaged.add(HookKey.decode(key).seq());
        }
    }

    /** Releases the k-th tenant's quarantine back to due (its hooks may still be damaged). */
    public void releaseQuarantine(int k) {
        long tenants = q.queue().tenantCount();
        if (tenants > 0) {
            q.name(1 + k % tenants).ifPresent(name -> q.queue().releaseQuarantine(name));
        }
    }

    /** Purges the k-th tenant's quarantine. */
    public void purgeQuarantine(int k) {
        long tenants = q.queue().tenantCount();
        if (tenants > 0) {
            q.name(1 + k % tenants).ifPresent(name -> q.queue().purgeQuarantine(name));
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

package io.ankusa.queue.intake;

import io.ankusa.api.Hook;
import io.ankusa.api.Receipt;
import io.ankusa.keys.ColumnFamilies;
import io.ankusa.keys.DedupeExpiryKey;
import io.ankusa.keys.DedupeKey;
import io.ankusa.keys.KeySpan;
import io.ankusa.queue.deliveries.DeliveryBatch;
import io.ankusa.store.Durability;
import io.ankusa.store.KeyRange;
import io.ankusa.store.Scan;
import io.ankusa.store.Store;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * Dedupe by idempotency key, owned by the ingest writer: {@link #screen} and {@link #sweep} run on
 * the writer thread only, and nothing else writes {@link io.ankusa.keys.DedupeKey ?u} or
 * {@link io.ankusa.keys.DedupeExpiryKey ?e}.
 *
 * <p>What it guarantees, and why:
 * <ul>
 * <li><b>A repeat within the window is not queued again.</b> Before the writer resolves tenants,
 *     {@link #screen} reads the batch's {@link io.ankusa.keys.DedupeKey ?u} entries with one multi-get. A hook whose
 *     (tenant, key) entry exists and has not expired completes with the entry's receipt (the
 *     original hook's id and seq) and writes nothing. Within one batch, the first hook of a
 *     (tenant, key) leads and later ones follow it: they complete with whatever the leader's ingest
 *     completes with, so two hooks with one key in one batch are queued once.</li>
 * <li><b>The entry is as durable as the hook.</b> An accepted keyed hook's
 * {@link io.ankusa.keys.DedupeKey ?u} (its receipt
 *     and expiry) and {@link io.ankusa.keys.DedupeExpiryKey ?e} puts ride in the writer's synced batch with the hook
 *     ({@link #writeTo}); a failed commit leaves no entry, so a retry of the same key is accepted.</li>
 * <li><b>Nothing races the sweep.</b> An expired entry is either replaced by the writer (a new
 *     hook with that key: new {@link io.ankusa.keys.DedupeKey ?u}, old
 *     {@link io.ankusa.keys.DedupeExpiryKey ?e} deleted, new {@link io.ankusa.keys.DedupeExpiryKey ?e} put)
 *     or deleted by
 *     {@link #sweep}; both run on the writer thread, so a sweep can never delete an entry the
 *     writer just renewed. The sweep deletes an {@link io.ankusa.keys.DedupeKey ?u} only when its expiry is the one its
 *     {@link io.ankusa.keys.DedupeExpiryKey ?e} key names, and every
 *     {@link io.ankusa.keys.DedupeExpiryKey ?e} it reads.</li>
 * </ul>
 * A key is tenant-scoped: the same key under two tenants is two entries. The window runs from the
 * original's acceptance; repeats do not extend it.
 */
public final class IdempotencyKeys {

    /** Keys per synced batch when a tenant's keys are erased. */
    static final int ERASE_CHUNK = 500;

    private final Store store;
    private final long windowMillis;

    /** Dedupe over {@code store} with a window of {@code windowMillis}. */
    public IdempotencyKeys(Store store, long windowMillis) {
        this.store = Objects.requireNonNull(store, "store");
        if (windowMillis < 1) {
            throw new IllegalArgumentException("dedupe window must be >= 1 ms: " + windowMillis);
        }
        this.windowMillis = windowMillis;
    }

    /** What the writer does with one hook of a batch. */
    public sealed interface Verdict {
    }

    /** No idempotency key: queue it. */
    public record Unkeyed() implements Verdict {
    }

    /**
     * Queue it and record its key ({@link #writeTo}).
     *
     * @param key      the entry to write
     * @param replaces the expiry of an expired entry it replaces, if any
     */
    public record Fresh(DedupeKey key, Optional<Long> replaces) implements Verdict {
    }

    /** A repeat of a stored hook within the window: complete with {@code receipt}, write nothing. */
    public record Repeat(Receipt receipt) implements Verdict {
    }

    /** A repeat of the earlier hook at index {@code leader} of the same batch: complete as it does. */
    public record Follows(int leader) implements Verdict {
    }

    private static final Unkeyed UNKEYED = new Unkeyed();

    /** One verdict per hook of a batch, in order (one multi-get of the batch's distinct keys). */
    public List<Verdict> screen(List<Hook> hooks, long now) {
        return screen(hooks, now, Map.of());
    }

    /**
     * One verdict per hook of a batch, in order. {@code unwritten} holds the entries of batches
     * handed to the committer and not yet written (the writer's batches in flight): they count as
     * stored, and only the batch's other distinct keys are read, with one multi-get.
     */
    List<Verdict> screen(List<Hook> hooks, long now, Map<DedupeKey, DedupeKey.Value> unwritten) {
        Map<DedupeKey, Integer> leaders = new HashMap<>();
        List<DedupeKey> distinct = new ArrayList<>();
        List<DedupeKey> keys = new ArrayList<>(hooks.size());
        for (int i = 0; i < hooks.size(); i++) {
            Hook hook = hooks.get(i);
            DedupeKey key = hook.idempotencyKey().map(k -> new DedupeKey(hook.tenant(), k)).orElse(null);
            keys.add(key);
            if (key != null && leaders.putIfAbsent(key, i) == null) {
                distinct.add(key);
            }
        }
        if (distinct.isEmpty()) {
            return hooks.stream().<Verdict>map(h -> UNKEYED).toList();
        }
        Map<DedupeKey, DedupeKey.Value> entries = new HashMap<>();
        List<DedupeKey> toRead = new ArrayList<>(distinct.size());
        for (DedupeKey key : distinct) {
            DedupeKey.Value inFlight = unwritten.get(key);
            if (inFlight != null) {
                entries.put(key, inFlight);
            } else {
                toRead.add(key);
            }
        }
        if (!toRead.isEmpty()) {
            List<Optional<byte[]>> stored =
                    store.multiGet(ColumnFamilies.INDEX, toRead.stream().map(DedupeKey::encode).toList());
            for (int i = 0; i < toRead.size(); i++) {
                int at = i;
                stored.get(i).ifPresent(v -> entries.put(toRead.get(at), DedupeKey.decodeValue(v)));
            }
        }
        List<Verdict> verdicts = new ArrayList<>(hooks.size());
        for (int i = 0; i < hooks.size(); i++) {
            DedupeKey key = keys.get(i);
            DedupeKey.Value entry = key == null ? null : entries.get(key);
            if (key == null) {
                verdicts.add(UNKEYED);
            } else if (entry != null && now < entry.expiresAt()) {
                verdicts.add(new Repeat(new Receipt(entry.hookId(), key.tenant(), entry.seq())));
            } else if (leaders.get(key) != i) {
                verdicts.add(new Follows(leaders.get(key)));
            } else {
                verdicts.add(new Fresh(key, Optional.ofNullable(entry).map(DedupeKey.Value::expiresAt)));
            }
        }
        return verdicts;
    }

    /**
     * The entry of an accepted hook ({@code seq}, {@code hookId}) accepted at {@code now}, into the
     * writer's batch; returns the entry as {@link #screen} would read it once written.
     */
    public DedupeKey.Value writeTo(DeliveryBatch batch, Fresh fresh, long seq, String hookId, long now) {
        long expiresAt = now + windowMillis;
        fresh.replaces()
                .ifPresent(old -> batch.delete(ColumnFamilies.INDEX, DedupeExpiryKey.of(old, fresh.key()).encode()));
        batch.put(ColumnFamilies.INDEX, fresh.key().encode(), DedupeKey.value(seq, expiresAt, hookId));
        batch.put(ColumnFamilies.INDEX, DedupeExpiryKey.of(expiresAt, fresh.key()).encode(), new byte[0]);
        return new DedupeKey.Value(seq, expiresAt, hookId);
    }

    /**
     * Deletes up to {@code limit} expired entries (expiry at or before {@code now}), oldest first,
     * in one unsynced batch (a lost sweep is redone); returns how many
     * {@link io.ankusa.keys.DedupeExpiryKey ?e} keys it removed.
     * Writer thread only.
     */
    public int sweep(long now, int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be >= 1: " + limit);
        }
        List<DedupeExpiryKey> expired = new ArrayList<>();
        KeySpan span = DedupeExpiryKey.expiredBy(now);
        try (Scan scan = store.scan(ColumnFamilies.INDEX, KeyRange.of(span.from(), span.to()))) {
            while (expired.size() < limit && scan.hasNext()) {
                expired.add(DedupeExpiryKey.decode(scan.next().key()));
            }
        }
        if (expired.isEmpty()) {
            return 0;
        }
        List<Optional<byte[]>> entries = store.multiGet(ColumnFamilies.INDEX,
                expired.stream().map(e -> e.dedupeKey().encode()).toList());
        DeliveryBatch batch = new DeliveryBatch();
        for (int i = 0; i < expired.size(); i++) {
            DedupeExpiryKey e = expired.get(i);
            batch.delete(ColumnFamilies.INDEX, e.encode());
            // An entry renewed after this expiry key was written has its own, later expiry key.
            if (entries.get(i).isPresent() && DedupeKey.decodeValue(entries.get(i).get()).expiresAt() == e.at()) {
                batch.delete(ColumnFamilies.INDEX, e.dedupeKey().encode());
            }
        }
        batch.commit(store, Durability.ASYNC);
        return expired.size();
    }

    /**
     * Erases every dedupe key of {@code tenant} (the {@code tenant\0} prefix of
     * {@link io.ankusa.keys.DedupeKey ?u}) and
     * every expiry key ({@link io.ankusa.keys.DedupeExpiryKey ?e}) naming it, in synced batches of
     * {@value #ERASE_CHUNK}; the
     * expiry family is not keyed by tenant, so it is walked whole. Idempotent. Writer thread only
     * (the queue runs it as a writer chore), so it cannot race the dedupe check or the sweep.
     *
     * @param tenant the tenant being erased
     * @return how many keys it deleted
     */
    public long eraseTenant(String tenant) {
        Objects.requireNonNull(tenant, "tenant");
        long deleted = eraseWhere(DedupeExpiryKey.FAMILY.between(),
                key -> DedupeExpiryKey.decode(key).tenant().equals(tenant));
        return deleted + eraseWhere(DedupeKey.tenantRange(tenant), key -> true);
    }

    private long eraseWhere(KeySpan span, Predicate<byte[]> theTenants) {
        long deleted = 0;
        byte[] from = span.from();
        while (true) {
            List<byte[]> chunk = new ArrayList<>();
            byte[] last = null;
            int seen = 0;
            try (Scan scan = store.scan(ColumnFamilies.INDEX, KeyRange.of(from, span.to()))) {
                while (seen < ERASE_CHUNK && scan.hasNext()) {
                    last = scan.next().key();
                    seen++;
                    if (theTenants.test(last)) {
                        chunk.add(last);
                    }
                }
            }
            if (!chunk.isEmpty()) {
                DeliveryBatch batch = new DeliveryBatch();
                chunk.forEach(key -> batch.delete(ColumnFamilies.INDEX, key));
                batch.commit(store, Durability.SYNC);
                deleted += chunk.size();
            }
            if (seen < ERASE_CHUNK) {
                return deleted;
            }
            from = successor(last);
        }
    }

    /** The smallest key after {@code key}. */
    private static byte[] successor(byte[] key) {
        return Arrays.copyOf(key, key.length + 1);
    }
}

package io.ankusa.queue.migration;

import io.ankusa.api.Hook;
import io.ankusa.keys.ArchiveKey;
import io.ankusa.keys.ColumnFamilies;
import io.ankusa.keys.DeadKey;
import io.ankusa.keys.DeliveryKey;
import io.ankusa.keys.HookKey;
import io.ankusa.keys.KeyFamily;
import io.ankusa.keys.MetaKeys;
import io.ankusa.keys.v2.ArchiveValueV2;
import io.ankusa.keys.v2.DeadValueV2;
import io.ankusa.keys.v2.DueKeyV2;
import io.ankusa.keys.v2.InflightKeyV2;
import io.ankusa.keys.v2.LayoutV2;
import io.ankusa.queue.deliveries.DeliveryRow;
import io.ankusa.queue.deliveries.HookEnvelope;
import io.ankusa.store.Durability;
import io.ankusa.store.FamilySpec;
import io.ankusa.store.Store;
import io.ankusa.store.StoreOptions;
import io.ankusa.store.Stores;
import io.ankusa.store.WriteBatch;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes a store the way a format-2 release left it (TEN-1 §0): five column families (no
 * {@code tenants}, no {@code counters}), due rows {@code <<?d, at, seq, sink>>} and inflight rows
 * {@code <<?f, seq, sink>>} with {@code <<size::32>>} values, dead values without an ordinal, archive
 * values {@code <<size::32>>}, every format-2 family's sentinels, and {@code m:format = 2}.
 *
 * <p>Format 2 and format 3 share the hook envelope and delivery row codecs (version 1): the
 * format-3 change is the index layout only. A hook can also be written as bytes that do not decode
 * ({@link #brokenHook}) or left out while rows still refer to it ({@link #missingHook}), as a
 * crash, a bug or reclaim would leave it.
 *
 * <p>Writes are buffered and committed in batches; {@link #close()} commits the rest synced.
 *
 * <p>Fixture and test support, not API: this package is not exported. It writes the committed
 * format-2 fixture ({@link io.ankusa.queue.fixtures.StoreFixtures}); the upgrade tests and the migration
 * bench (on the class path) write their format-2 backlogs with it.
 */
public final class FormatTwoWriter implements AutoCloseable {

    private static final int FLUSH_OPS = 8_192;

    private final Store store;
    private final Map<Long, Integer> sizes = new HashMap<>();
    private WriteBatch pending = new WriteBatch();
    private long lastSeq;
    private long rows;

    private FormatTwoWriter(Store store) {
        this.store = store;
    }

    /** The format-2 column families, as a format-2 release declares them. */
    public static List<FamilySpec> families() {
        return LayoutV2.COLUMN_FAMILIES.stream().map(FamilySpec::plain).toList();
    }

    /** Creates a new format-2 store in {@code directory} with the {@code backend} backend. */
    public static FormatTwoWriter create(String backend, Path directory) {
        Store store = Stores.open(backend, StoreOptions.create(directory, families()));
        FormatTwoWriter writer = new FormatTwoWriter(store);
        for (KeyFamily family : LayoutV2.KEY_FAMILIES) {
            writer.pending.put(family.columnFamily(), family.lo(), new byte[0]);
            writer.pending.put(family.columnFamily(), family.hi(), new byte[0]);
        }
        writer.pending.put(ColumnFamilies.DEFAULT, MetaKeys.FORMAT, MetaKeys.u32Value(2));
        writer.flush(Durability.SYNC);
        return writer;
    }

    /** Stores {@code hook} (received at {@code receivedAt}) under the next seq; returns the seq. */
    public long hook(Hook hook, long receivedAt) {
        return rawHook(new HookEnvelope(hook, receivedAt).encode());
    }

    /** Stores {@code bytes} as the envelope of the next seq: a hook that does not decode. */
    public long brokenHook(byte[] bytes) {
        return rawHook(bytes);
    }

    /**
     * Takes the next seq without storing its hook (rows may still refer to it); {@code size} is what its rows carry.
     */
    public long missingHook(int size) {
        long seq = ++lastSeq;
        sizes.put(seq, size);
        return seq;
    }

    private long rawHook(byte[] envelope) {
        long seq = ++lastSeq;
        sizes.put(seq, envelope.length);
        add().put(ColumnFamilies.HOOKS, new HookKey(seq).encode(), envelope);
        return seq;
    }

    /** A due row of hook {@code seq} for {@code sink} at {@code at}, after {@code attempts} failed attempts. */
    public void due(long seq, int sink, long at, int attempts) {
        long size = size(seq);
        deliveryRow(seq, sink, attempts);
        add().put(ColumnFamilies.INDEX, new DueKeyV2(at, seq, sink).encode(), DueKeyV2.value(size));
        rows++;
    }

    /** An inflight row of hook {@code seq} for {@code sink}, as a crash leaves it. */
    public void inflight(long seq, int sink) {
        deliveryRow(seq, sink, 0);
        add().put(ColumnFamilies.INDEX, new InflightKeyV2(seq, sink).encode(), InflightKeyV2.value(size(seq)));
        rows++;
    }

    /** A dead row of hook {@code seq} for {@code sink}, dead-lettered at {@code at}. */
    public void dead(long seq, int sink, long at, String sourceId, String hookId) {
        deliveryRow(seq, sink, 5);
        add().put(ColumnFamilies.INDEX, new DeadKey(at, seq, sink).encode(),
                new DeadValueV2(sourceId, hookId).encode());
        rows++;
    }

    /** An archive obligation of hook {@code seq}. */
    public void archive(long seq) {
        add().put(ColumnFamilies.INDEX, new ArchiveKey(seq).encode(), ArchiveValueV2.encode(size(seq)));
        rows++;
    }

    /** Any put, for damaged values or stray keys. */
    public void raw(String family, byte[] key, byte[] value) {
        add().put(family, key, value);
    }

    private void deliveryRow(long seq, int sink, int attempts) {
        DeliveryRow row = attempts == 0 ? DeliveryRow.fresh(size(seq))
                : new DeliveryRow(size(seq), attempts, 1_700_000_000_000L, "HTTP 503");
        add().put(ColumnFamilies.DELIVERIES, new DeliveryKey(seq, sink).encode(), row.encode());
    }

    private long size(long seq) {
        Integer size = sizes.get(seq);
        if (size == null) {
            throw new IllegalArgumentException("no hook with seq " + seq);
        }
        return size;
    }

    private WriteBatch add() {
        if (pending.size() >= FLUSH_OPS) {
            flush(Durability.ASYNC);
        }
        return pending;
    }

    private void flush(Durability durability) {
        store.commit(pending, durability);
        pending = new WriteBatch();
    }

    /** Index rows written so far (due, inflight, dead, archive): what the migration will visit. */
    public long rows() {
        return rows;
    }

    /** The store (commits what is buffered first). */
    public Store store() {
        flush(Durability.SYNC);
        return store;
    }

    /** Commits what is buffered, synced, and closes the store. */
    @Override
    public void close() {
        try {
            flush(Durability.SYNC);
        } finally {
            store.close();
        }
    }
}

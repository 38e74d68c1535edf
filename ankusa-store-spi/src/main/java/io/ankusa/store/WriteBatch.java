package io.ankusa.store;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * An ordered list of writes committed atomically by {@link Store#commit}: all of it or none of
 * it, also across a crash. Ops apply in the order added. Arguments are checked as they are added
 * (no empty key, no inverted range); family kinds are checked at commit.
 *
 * <p>Not thread-safe; a batch may be committed once or many times but should not be changed
 * while a commit runs.
 */
public final class WriteBatch {

    /** One write. */
    public sealed interface Op permits Put, Delete, DeleteRange, Merge {
        /** {@return the target family} */
        String family();
    }

    /**
     * Put {@code value} at {@code key} (plain families only).
     *
     * @param family the plain family
     * @param key    the key
     * @param value  the value
     */
    public record Put(String family, byte[] key, byte[] value) implements Op {
    }

    /**
     * Delete {@code key}; deleting an absent key is not an error.
     *
     * @param family the family
     * @param key    the key
     */
    public record Delete(String family, byte[] key) implements Op {
    }

    /**
     * Delete every key in {@code [from, to)}.
     *
     * @param family the family
     * @param from   the inclusive start
     * @param to     the exclusive end
     */
    public record DeleteRange(String family, byte[] from, byte[] to) implements Op {
    }

    /**
     * Add {@code delta} to the counter at {@code key} (counter families only), without reading it.
     *
     * @param family the counter family
     * @param key    the counter row
     * @param delta  the amount to add (may be negative)
     */
    public record Merge(String family, byte[] key, long delta) implements Op {
    }

    private final List<Op> ops = new ArrayList<>();
    private long approximateBytes;

    /** An empty batch. */
    public WriteBatch() {
    }

    /**
     * Adds a put. Arrays are copied.
     *
     * @param family a plain family
     * @param key the key
     * @param value the value
     * @return this batch
     */
    public WriteBatch put(String family, byte[] key, byte[] value) {
        Objects.requireNonNull(value, "value");
        ops.add(new Put(family(family), key(key), value.clone()));
        approximateBytes += key.length + value.length + 8;
        return this;
    }

    /**
     * Adds a delete.
     *
     * @param family the family
     * @param key the key
     * @return this batch
     */
    public WriteBatch delete(String family, byte[] key) {
        ops.add(new Delete(family(family), key(key)));
        approximateBytes += key.length + 8;
        return this;
    }

    /**
     * Adds a range delete of {@code [from, to)}; refuses {@code from > to}.
     *
     * @param family the family
     * @param from the inclusive start
     * @param to the exclusive end
     * @return this batch
     */
    public WriteBatch deleteRange(String family, byte[] from, byte[] to) {
        Objects.requireNonNull(from, "from");
        Objects.requireNonNull(to, "to");
        if (Bytes.compare(from, to) > 0) {
            throw new StoreException(StoreError.INVALID_ARGUMENT,
                    "deleteRange start " + Bytes.hex(from) + " is after its end " + Bytes.hex(to));
        }
        ops.add(new DeleteRange(family(family), from.clone(), to.clone()));
        approximateBytes += from.length + to.length + 8;
        return this;
    }

    /**
     * Adds a merge operand: the counter at {@code key} grows by {@code delta} (may be negative).
     *
     * @param family a counter family
     * @param key the counter row
     * @param delta the amount to add
     * @return this batch
     */
    public WriteBatch merge(String family, byte[] key, long delta) {
        ops.add(new Merge(family(family), key(key), delta));
        approximateBytes += key.length + 16;
        return this;
    }

    /**
     * Appends every op of {@code other}.
     *
     * @param other the batch whose ops to append (it is unchanged)
     * @return this batch
     */
    public WriteBatch addAll(WriteBatch other) {
        ops.addAll(other.ops);
        approximateBytes += other.approximateBytes;
        return this;
    }

    /** {@return the ops in order, read-only} */
    public List<Op> ops() {
        return Collections.unmodifiableList(ops);
    }

    /** {@return number of ops} */
    public int size() {
        return ops.size();
    }

    /** {@return whether the batch has no op} */
    public boolean isEmpty() {
        return ops.isEmpty();
    }

    /**
     * Approximate encoded size in bytes, for batch limits.
     *
     * @return the approximate size of the ops in bytes
     */
    public long approximateBytes() {
        return approximateBytes;
    }

    private static String family(String family) {
        Objects.requireNonNull(family, "family");
        return family;
    }

    private static byte[] key(byte[] key) {
        Objects.requireNonNull(key, "key");
        if (key.length == 0) {
            throw new StoreException(StoreError.INVALID_ARGUMENT, "empty key");
        }
        return key.clone();
    }

    @Override
    public String toString() {
        return "WriteBatch[" + ops.size() + " ops]";
    }
}

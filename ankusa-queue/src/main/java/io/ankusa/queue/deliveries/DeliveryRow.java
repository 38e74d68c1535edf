package io.ankusa.queue.deliveries;

import java.util.Objects;

/**
 * The state of one (hook, sink) delivery, stored in the {@code deliveries} family for as long as
 * the delivery is owed (due, inflight or dead).
 *
 * <p>Binary layout, version 1 (integers big-endian):
 * <pre>
 * | version u8 = 1 | size u32 | attempts u32 | last_attempt_at u64 (epoch ms, 0 = never) |
 * | last_error length u32 | last_error UTF-8 |
 * </pre>
 * A decoder refuses an unknown version, an overrun and trailing bytes with
 * {@link io.ankusa.store.StoreCorruptionException}.
 *
 * @param size          the hook's envelope size in bytes (what the bytes counter counts)
 * @param attempts      delivery attempts made so far
 * @param lastAttemptAt when the last attempt ended, epoch milliseconds; 0 before the first
 * @param lastError     why the last attempt failed; empty if none failed
 */
public record DeliveryRow(long size, int attempts, long lastAttemptAt, String lastError) {

    /** The version this code writes. */
    public static final int VERSION = 1;

    /** Checks the fields. */
    public DeliveryRow {
        lastError = wellFormed(Objects.requireNonNull(lastError, "lastError"));
        if (size < 0 || size > 0xFFFF_FFFFL || attempts < 0) {
            throw new IllegalArgumentException("size must be a u32 and attempts >= 0");
        }
    }

    /**
     * {@code text} with each unpaired surrogate replaced by U+FFFD: the last error is a sink's
     * diagnostic, not an identity, so it is stored as near as UTF-8 allows rather than refused
     * (the strict encoder would refuse it, and with it the settlement).
     */
    private static String wellFormed(String text) {
        StringBuilder out = null;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            boolean pair = Character.isHighSurrogate(c) && i + 1 < text.length()
                    && Character.isLowSurrogate(text.charAt(i + 1));
            if (!pair && Character.isSurrogate(c)) {
                if (out == null) {
                    out = new StringBuilder(text.length()).append(text, 0, i);
                }
                out.append('\uFFFD');
                continue;
            }
            if (out != null) {
                out.append(c);
                if (pair) {
                    out.append(text.charAt(i + 1));
                }
            }
            if (pair) {
                i++;
            }
        }
        return out == null ? text : out.toString();
    }

    /** A row not yet attempted. */
    public static DeliveryRow fresh(long size) {
        return new DeliveryRow(size, 0, 0, "");
    }

    /** This row after a failed attempt. */
    public DeliveryRow failed(int attempt, long at, String error) {
        return new DeliveryRow(size, attempt, at, error);
    }

    /** This row revived from the DLQ: attempts start again, the last error is kept for history. */
    public DeliveryRow revived() {
        return new DeliveryRow(size, 0, lastAttemptAt, lastError);
    }

    /** Encodes. */
    public byte[] encode() {
        return new Wire.Out(32 + lastError.length())
                .u8(VERSION).u32(size).u32(attempts).u64(lastAttemptAt).string(lastError).toByteArray();
    }

    /** Decodes. */
    public static DeliveryRow decode(byte[] bytes) {
        Wire.In in = new Wire.In("delivery row", bytes);
        int version = in.u8();
        if (version != VERSION) {
            throw in.corrupt("unknown version " + version);
        }
        long size = in.u32();
        long attempts = in.u32();
        long lastAttemptAt = in.u64();
        String lastError = in.string();
        in.end();
        if (attempts > Integer.MAX_VALUE) {
            throw in.corrupt("attempts " + attempts);
        }
        return new DeliveryRow(size, (int) attempts, lastAttemptAt, lastError);
    }
}

package io.ankusa.queue.migration;

import io.ankusa.store.StoreCorruptionException;
import java.util.Arrays;

/**
 * Where {@link TenantKeys} stopped: the phase and the last old key it moved.
 *
 * <pre>
 * | phase u8 (1 due, 2 inflight, 3 dead, 4 archive, 5 finish) | last old key (empty: the phase's start) |
 * </pre>
 *
 * @param phase      the phase to continue
 * @param lastOldKey the last key of that phase already migrated; empty when none is
 */
record TenantKeysCursor(TenantKeysPhase phase, byte[] lastOldKey) {

    /** The first step's cursor. */
    static final TenantKeysCursor START = new TenantKeysCursor(TenantKeysPhase.DUE, new byte[0]);

    TenantKeysCursor {
        lastOldKey = lastOldKey.clone();
    }

    byte[] encode() {
        byte[] out = new byte[1 + lastOldKey.length];
        out[0] = (byte) phase.number();
        System.arraycopy(lastOldKey, 0, out, 1, lastOldKey.length);
        return out;
    }

    /** Decodes; an empty cursor is {@link #START}. */
    static TenantKeysCursor decode(byte[] cursor) {
        if (cursor.length == 0) {
            return START;
        }
        TenantKeysPhase phase = TenantKeysPhase.of(cursor[0] & 0xFF).orElseThrow(() -> new StoreCorruptionException(
                "2 -> 3 migration cursor names phase " + (cursor[0] & 0xFF) + "; phases are 1..5"));
        return new TenantKeysCursor(phase, Arrays.copyOfRange(cursor, 1, cursor.length));
    }

    @Override
    public byte[] lastOldKey() {
        return lastOldKey.clone();
    }
}

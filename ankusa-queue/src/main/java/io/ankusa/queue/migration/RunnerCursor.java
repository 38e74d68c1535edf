package io.ankusa.queue.migration;

import io.ankusa.keys.BigEndian;
import io.ankusa.store.StoreCorruptionException;
import java.util.Arrays;

/**
 * The value of {@code m:migrating:<to>} while a migration runs: when it started, then the
 * migration's own cursor.
 *
 * <pre>
 * | started_at u64 (epoch ms) | step cursor (the migration's; for 2 -&gt; 3: phase u8, last old key) |
 * </pre>
 *
 * @param startedAt when the migration first started
 * @param cursor    the migration's cursor
 */
record RunnerCursor(long startedAt, byte[] cursor) {

    RunnerCursor {
        cursor = cursor.clone();
    }

    byte[] encode() {
        byte[] out = new byte[8 + cursor.length];
        BigEndian.putU64(out, 0, startedAt);
        System.arraycopy(cursor, 0, out, 8, cursor.length);
        return out;
    }

    static RunnerCursor decode(byte[] value) {
        if (value.length < 8 || (value[0] & 0x80) != 0) {
            throw new StoreCorruptionException("migration cursor is " + value.length
                    + " bytes; expected <<started_at::64, cursor>>");
        }
        return new RunnerCursor(BigEndian.u64(value, 0), Arrays.copyOfRange(value, 8, value.length));
    }

    @Override
    public byte[] cursor() {
        return cursor.clone();
    }
}

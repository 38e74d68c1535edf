package io.ankusa.queue.migration;

import io.ankusa.keys.v2.DeadValueV2;
import java.util.Optional;
import java.util.OptionalLong;

/** A format-2 index row as {@link TenantKeys} reads it. */
sealed interface OldRow {

    /** The old key (the cursor's last old key when this row ends a step). */
    byte[] key();

    /** The hook's seq, if the key decoded. */
    OptionalLong hookSeq();

    /**
     * A {@link io.ankusa.keys.v2.DueKeyV2 ?d} row.
     *
     * @param size the value's size; empty when the value does not decode
     */
    record Due(byte[] key, long at, long seq, int sink, OptionalLong size) implements OldRow {
        @Override
        public OptionalLong hookSeq() {
            return OptionalLong.of(seq);
        }
    }

    /** An {@link io.ankusa.keys.v2.InflightKeyV2 ?f} row. */
    record Inflight(byte[] key, long seq, int sink, OptionalLong size) implements OldRow {
        @Override
        public OptionalLong hookSeq() {
            return OptionalLong.of(seq);
        }
    }

    /** A {@link io.ankusa.keys.DeadKey ?x} row; its value is empty when it does not decode as format 2. */
    record Dead(byte[] key, long at, long seq, int sink, Optional<DeadValueV2> value) implements OldRow {
        @Override
        public OptionalLong hookSeq() {
            return OptionalLong.of(seq);
        }
    }

    /** An {@link io.ankusa.keys.ArchiveKey ?a} row. */
    record Archive(byte[] key, long seq, OptionalLong size) implements OldRow {
        @Override
        public OptionalLong hookSeq() {
            return OptionalLong.of(seq);
        }
    }

    /** A key between the sentinels that is not a key of its family. */
    record Stray(byte[] key, String problem) implements OldRow {
        @Override
        public OptionalLong hookSeq() {
            return OptionalLong.empty();
        }
    }
}

package io.ankusa.queue.deliveries;

import io.ankusa.keys.DueKey;
import io.ankusa.queue.ledger.DueKind;
import io.ankusa.queue.ledger.DueRow;

/** Decodes due keys and values into {@link DueRow}s. */
final class DueRows {

    private DueRows() {
    }

    static DueRow decode(byte[] key, byte[] value) {
        DueKey k = DueKey.decode(key);
        DueKey.Value v = DueKey.decodeValue(value);
        return new DueRow(k.ord(), k.at(), k.seq(), k.sink(), v.size(),
                v.kind() == DueKey.KIND_RETRY ? DueKind.RETRY : DueKind.FIRST_ATTEMPT, v.group());
    }
}

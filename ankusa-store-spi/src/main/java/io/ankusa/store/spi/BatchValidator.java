package io.ankusa.store.spi;

import io.ankusa.store.FamilyKind;
import io.ankusa.store.StoreError;
import io.ankusa.store.StoreException;
import io.ankusa.store.UnknownFamilyException;
import io.ankusa.store.WriteBatch;
import java.util.Map;

/**
 * Checks a batch against the store's families before any of it reaches a backend. RocksDB turns
 * some malformed writes (a merge into a family without a merge operator, an inverted range delete)
 * into a sticky error that refuses every later write until reopen, and silently reads a counter
 * operand that is not 8 bytes as 0; so nothing malformed may get that far.
 */
public final class BatchValidator {

    private BatchValidator() {
    }

    /**
     * Throws if any op names an unknown family or does not fit its family's kind.
     *
     * @param batch the batch about to be committed
     * @param kinds the kind of every declared family
     */
    public static void validate(WriteBatch batch, Map<String, FamilyKind> kinds) {
        for (WriteBatch.Op op : batch.ops()) {
            FamilyKind kind = kinds.get(op.family());
            if (kind == null) {
                throw new UnknownFamilyException("unknown family '" + op.family() + "'; declared: " + kinds.keySet());
            }
            if (op instanceof WriteBatch.Put && kind == FamilyKind.COUNTER) {
                throw new StoreException(StoreError.INVALID_ARGUMENT,
                        "put into counter family '" + op.family() + "': counters take merge operands only");
            }
            if (op instanceof WriteBatch.Merge && kind != FamilyKind.COUNTER) {
                throw new StoreException(StoreError.INVALID_ARGUMENT,
                        "merge into plain family '" + op.family() + "': only counter families take merges");
            }
        }
    }

    /**
     * Throws unless {@code family} is declared with {@code expected} kind (for reads).
     *
     * @param kinds the kind of every declared family
     * @param family the family read
     * @param expected the kind the read needs
     */
    public static void requireKind(Map<String, FamilyKind> kinds, String family, FamilyKind expected) {
        FamilyKind kind = kinds.get(family);
        if (kind == null) {
            throw new UnknownFamilyException("unknown family '" + family + "'; declared: " + kinds.keySet());
        }
        if (kind != expected) {
            throw new StoreException(StoreError.INVALID_ARGUMENT, "family '" + family + "' is " + kind
                    + (expected == FamilyKind.COUNTER ? "; read it with get/scan" : "; read it with counter/counters"));
        }
    }
}

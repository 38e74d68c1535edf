package io.ankusa.queue.migration;

import io.ankusa.keys.ArchiveKey;
import io.ankusa.keys.ColumnFamilies;
import io.ankusa.keys.DeadKey;
import io.ankusa.keys.KeyFamily;
import io.ankusa.keys.KeyFormatException;
import io.ankusa.keys.v2.ArchiveValueV2;
import io.ankusa.keys.v2.DeadValueV2;
import io.ankusa.keys.v2.DueKeyV2;
import io.ankusa.keys.v2.InflightKeyV2;
import io.ankusa.store.KeyRange;
import io.ankusa.store.KeyValue;
import io.ankusa.store.Scan;
import io.ankusa.store.Store;
import io.ankusa.store.StoreCorruptionException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The phases of {@link TenantKeys}, in order, each reading one old key family of the
 * {@code index} column family from just after the cursor's last old key.
 */
enum TenantKeysPhase {
    /** Format-2 due rows {@link io.ankusa.keys.v2.DueKeyV2 ?d}. */
    DUE(1, "due", DueKeyV2.FAMILY),
    /** Format-2 inflight rows {@link io.ankusa.keys.v2.InflightKeyV2 ?f}. */
    INFLIGHT(2, "inflight", InflightKeyV2.FAMILY),
    /** Dead rows {@link io.ankusa.keys.DeadKey ?x} (key kept, value gains the ordinal). */
    DEAD(3, "dead", DeadKey.FAMILY),
    /** Archive obligations {@link io.ankusa.keys.ArchiveKey ?a} (key kept, value gains the ordinal). */
    ARCHIVE(4, "archive", ArchiveKey.FAMILY),
    /**
     * Range-delete what is left of {@link io.ankusa.keys.v2.DueKeyV2 ?d} and
     * {@link io.ankusa.keys.v2.InflightKeyV2 ?f}; the runner stamps the format.
     */
    FINISH(5, "finish", null);

    private final int number;
    private final String label;
    private final KeyFamily family;

    TenantKeysPhase(int number, String label, KeyFamily family) {
        this.number = number;
        this.label = label;
        this.family = family;
    }

    int number() {
        return number;
    }

    static Optional<TenantKeysPhase> of(int number) {
        return Arrays.stream(values()).filter(p -> p.number == number).findFirst();
    }

    TenantKeysPhase next() {
        if (this == FINISH) {
            throw new IllegalStateException("finish is the last phase");
        }
        return values()[ordinal() + 1];
    }

    /** {@code "phase 2 (inflight)"}. */
    String describe() {
        return "phase " + number + " (" + label + ")";
    }

    /**
     * Up to {@code limit} old rows of this phase's family strictly after {@code after} (from the
     * family's start when empty). The scan runs up to and including the hi sentinel: meeting it
     * ends the phase, and a scan that ends without meeting it is refused as corruption (a storage
     * binding may report corruption as a clean end of a scan).
     */
    Chunk read(Store store, byte[] after, int limit) {
        byte[] hi = family.hi();
        byte[] last = after.length == 0 ? family.lo() : after;
        byte[] from = Arrays.copyOf(last, last.length + 1);
        byte[] to = Arrays.copyOf(hi, hi.length + 1);
        List<OldRow> rows = new ArrayList<>(limit);
        try (Scan scan = store.scan(ColumnFamilies.INDEX, KeyRange.of(from, to))) {
            while (rows.size() < limit) {
                if (!scan.hasNext()) {
                    throw new StoreCorruptionException("the " + family.name() + " family ended without its hi sentinel"
                            + " (a scan ended early, or the sentinel was lost)");
                }
                KeyValue kv = scan.next();
                if (Arrays.equals(kv.key(), hi)) {
                    return new Chunk(rows, true);
                }
                rows.add(decode(kv.key(), kv.value()));
            }
        }
        return new Chunk(rows, false);
    }

    private OldRow decode(byte[] key, byte[] value) {
        try {
            return switch (this) {
                case DUE -> {
                    DueKeyV2 k = DueKeyV2.decode(key);
                    yield new OldRow.Due(key, k.at(), k.seq(), k.sink(), size(() -> DueKeyV2.decodeValue(value)));
                }
                case INFLIGHT -> {
                    InflightKeyV2 k = InflightKeyV2.decode(key);
                    yield new OldRow.Inflight(key, k.seq(), k.sink(), size(() -> InflightKeyV2.decodeValue(value)));
                }
                case DEAD -> {
                    DeadKey k = DeadKey.decode(key);
                    Optional<DeadValueV2> v;
                    try {
                        v = Optional.of(DeadValueV2.decode(value));
                    } catch (KeyFormatException e) {
                        v = Optional.empty();
                    }
                    yield new OldRow.Dead(key, k.at(), k.seq(), k.sink(), v);
                }
                case ARCHIVE -> {
                    ArchiveKey k = ArchiveKey.decode(key);
                    yield new OldRow.Archive(key, k.seq(), size(() -> ArchiveValueV2.decode(value)));
                }
                case FINISH -> throw new IllegalStateException("finish reads no rows");
            };
        } catch (KeyFormatException e) {
            return new OldRow.Stray(key, e.getMessage());
        }
    }

    private interface SizeDecoder {
        long decode();
    }

    /** The size in an old value, or empty when the value does not decode (the hook's size is used then). */
    private static OptionalLong size(SizeDecoder decoder) {
        try {
            return OptionalLong.of(decoder.decode());
        } catch (KeyFormatException e) {
            return OptionalLong.empty();
        }
    }

    /**
     * Rows read from one phase.
     *
     * @param rows      the rows, in key order
     * @param exhausted whether the phase's family has no more rows after them
     */
    record Chunk(List<OldRow> rows, boolean exhausted) {
    }
}

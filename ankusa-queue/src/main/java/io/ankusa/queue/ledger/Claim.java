package io.ankusa.queue.ledger;

import java.util.List;

/**
 * What a claim moved to inflight.
 *
 * @param claimed deliveries ready for their sinks
 * @param orphans rows moved to inflight whose hook is gone (a stored hook that does not decode fails the claim with
 *                {@code StoreCorruptionException} instead, keeping its rows due); settle each with
 *                {@link DeliveryLedger#dropOrphan} (or dead-letter it)
 */
public record Claim(List<ClaimedDelivery> claimed, List<InflightRow> orphans) {

    /** Copies the lists. */
    public Claim {
        claimed = List.copyOf(claimed);
        orphans = List.copyOf(orphans);
    }

    /** Nothing claimed. */
    public static Claim empty() {
        return new Claim(List.of(), List.of());
    }
}

package io.ankusa.queue.ledger;

import java.util.List;

/**
 * What a claim moved to inflight.
 *
 * @param claimed deliveries ready for their sinks
 * @param orphans     rows moved to inflight whose hook is gone (no hook stored under its seq); settle each
 *                    with {@link DeliveryLedger#dropOrphan} (or dead-letter it)
 * @param quarantined due rows moved aside in the same batch because their hook or delivery row is stored but
 *                    does not decode: not claimed, not deleted, counted as {@code quarantined}; the caller
 *                    reports each as corruption (the one place a "quarantined" event is raised)
 */
public record Claim(List<ClaimedDelivery> claimed, List<InflightRow> orphans, List<QuarantinedRow> quarantined) {

    /** Copies the lists. */
    public Claim {
        claimed = List.copyOf(claimed);
        orphans = List.copyOf(orphans);
        quarantined = List.copyOf(quarantined);
    }

    /** A claim with nothing quarantined. */
    public Claim(List<ClaimedDelivery> claimed, List<InflightRow> orphans) {
        this(claimed, orphans, List.of());
    }

    /** Nothing claimed. */
    public static Claim empty() {
        return new Claim(List.of(), List.of(), List.of());
    }
}

package io.ankusa.api.events;

import java.time.Duration;
import java.util.Map;
import java.util.Objects;

/**
 * One ingest batch, after the writer processed it: how many hooks it held and what became of each.
 * {@code accepted + duplicates + refusals + failed == batchSize}.
 *
 * @param batchSize  hooks the writer took into the batch
 * @param accepted   hooks written by the batch's synced commit (each got a new receipt)
 * @param duplicates hooks whose idempotency key repeated a stored or an in-batch hook (they got
 *                   the earlier hook's receipt and wrote nothing)
 * @param refused    hooks refused, by machine-readable reason: {@code tenant_limit},
 *                   {@code tenant_erasing}, {@code clock_before_epoch}, and
 *                   {@code tenant_overloaded.<reason>} for each ingest-admission limit
 *                   ({@code tenant_overloaded.pending_rows} …); only reasons that occurred
 * @param failed     hooks whose commit failed (a store error): none of them is durable
 * @param latency    the writer's time for the batch, from taking it to the end of its synced
 *                   commit (the commit latency; the wait in the writer's queue is not in it)
 */
public record IngestCommitted(int batchSize, int accepted, int duplicates, Map<String, Integer> refused, int failed,
        Duration latency) {

    /**
     * Copies the refusals; validates.
     *
     * @param batchSize hooks the writer took into the batch
     * @param accepted hooks written by the batch's synced commit (each got a new receipt)
     * @param duplicates hooks whose idempotency key repeated a stored or an in-batch hook (they got the earlier hook's
     *     receipt and wrote nothing)
     * @param refused hooks refused, by machine-readable reason: {@code tenant_limit}, {@code tenant_erasing},
     *     {@code clock_before_epoch}, and {@code tenant_overloaded.<reason>} for each ingest-admission limit
     *     ({@code tenant_overloaded.pending_rows} …); only reasons that occurred
     * @param failed hooks whose commit failed (a store error): none of them is durable
     * @param latency the writer's time for the batch, from taking it to the end of its synced commit (the commit
     *     latency; the wait in the writer's queue is not in it)
     */
    public IngestCommitted {
        refused = Map.copyOf(refused);
        Objects.requireNonNull(latency, "latency");
        if (batchSize < 0 || accepted < 0 || duplicates < 0 || failed < 0) {
            throw new IllegalArgumentException("counts must not be negative");
        }
    }

    /** {@return hooks refused, whatever the reason} */
    public int refusals() {
        return refused.values().stream().mapToInt(Integer::intValue).sum();
    }
}

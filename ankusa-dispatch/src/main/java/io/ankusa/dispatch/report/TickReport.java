package io.ankusa.dispatch.report;

import java.time.Instant;
import java.util.Objects;

/**
 * What one dispatch tick did, once every row it claimed is settled.
 *
 * @param startedAt      the tick's "now" (due rows up to this time were eligible)
 * @param tenantsVisited distinct tenants the tick visited: those with an active marker up to now,
 *                       in marker order, until the row limit or byte budget was spent
 * @param claimed        deliveries claimed and sent to their sinks
 * @param delivered      of those, delivered
 * @param retried        of those, due again later as retries
 * @param dead           of those, dead-lettered (a permanent failure or the last attempt)
 * @param dropped        rows claimed whose hook was gone or did not decode, dropped
 */
public record TickReport(Instant startedAt, int tenantsVisited, int claimed, int delivered, int retried, int dead,
        int dropped) {

    /**
     * Validates.
     *
     * @param startedAt the tick's "now" (due rows up to this time were eligible)
     * @param tenantsVisited distinct tenants the tick visited: those with an active marker up to now, in marker order,
     *     until the row limit or byte budget was spent
     * @param claimed deliveries claimed and sent to their sinks
     * @param delivered of those, delivered
     * @param retried of those, due again later as retries
     * @param dead of those, dead-lettered (a permanent failure or the last attempt)
     * @param dropped rows claimed whose hook was gone or did not decode, dropped
     */
    public TickReport {
        Objects.requireNonNull(startedAt, "startedAt");
        if (tenantsVisited < 0 || claimed < 0 || delivered < 0 || retried < 0 || dead < 0 || dropped < 0) {
            throw new IllegalArgumentException("counts must not be negative");
        }
    }
}

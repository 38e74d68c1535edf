package io.ankusa.queue.ledger;

import io.ankusa.api.EndpointDisableReason;
import java.util.Objects;
import java.util.Optional;

/**
 * The stored state of endpoint {@code (ord, sink)}, decoded: disabled (why, since when) or active,
 * and the first failure after its last success. A row that is active and not failing is stored as
 * no row at all ({@link #stored()} is false): writing it deletes the key.
 *
 * @param ord          tenant ordinal
 * @param sink         sink number
 * @param disabledBy   why it is disabled; empty when active
 * @param since        when it was disabled, epoch ms (0 when active)
 * @param failingSince the first failure after the last success, epoch ms (0 when none)
 */
public record EndpointRow(long ord, int sink, Optional<EndpointDisableReason> disabledBy, long since,
        long failingSince) {

    /** Checks the fields. */
    public EndpointRow {
        Objects.requireNonNull(disabledBy, "disabledBy");
        if (disabledBy.isEmpty() && since != 0) {
            throw new IllegalArgumentException("an active endpoint has no disabled time");
        }
        if (since < 0 || failingSince < 0) {
            throw new IllegalArgumentException("times must be >= 0");
        }
    }

    /** Endpoint {@code (ord, sink)} active and not failing: what having no row means. */
    public static EndpointRow healthy(long ord, int sink) {
        return new EndpointRow(ord, sink, Optional.empty(), 0, 0);
    }

    /** Whether it is disabled. */
    public boolean disabled() {
        return disabledBy.isPresent();
    }

    /** Whether the store holds a row for it (disabled or failing). */
    public boolean stored() {
        return disabled() || failingSince > 0;
    }

    /** This endpoint failing since {@code at} (kept if it already was). */
    public EndpointRow failing(long at) {
        return failingSince > 0 ? this : new EndpointRow(ord, sink, disabledBy, since, at);
    }

    /** This endpoint disabled by {@code reason} at {@code at}. */
    public EndpointRow disable(EndpointDisableReason reason, long at) {
        return new EndpointRow(ord, sink, Optional.of(reason), at, failingSince);
    }

    /** This endpoint enabled again, with its failure history cleared. */
    public EndpointRow enable() {
        return healthy(ord, sink);
    }

    /** The one number that names the endpoint in maps: {@code ord << 16 | sink}. */
    public long id() {
        return idOf(ord, sink);
    }

    /** The map id of endpoint {@code (ord, sink)}. */
    public static long idOf(long ord, int sink) {
        return ord << 16 | sink;
    }
}

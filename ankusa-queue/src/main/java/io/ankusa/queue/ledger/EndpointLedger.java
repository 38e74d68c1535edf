package io.ankusa.queue.ledger;

import java.util.List;
import java.util.function.Supplier;

/**
 * The dispatcher's port to the stored endpoint states (the queue's {@code ?E} family, kept in
 * memory): what the admission step reads per row, and how the settler writes the changes its
 * outcomes make — decided from {@link #get}, committed through
 * {@link DeliveryLedger#settle(List, List)} and {@link #applied applied}, all inside
 * {@link #writing}. Thread-safe.
 */
public interface EndpointLedger {

    /**
     * Endpoint {@code (ord, sink)}'s state (no lock, no store read once loaded).
     *
     * @param ord  tenant ordinal
     * @param sink sink number
     * @return its state; {@link EndpointRow#healthy} when nothing is stored
     */
    EndpointRow get(long ord, int sink);

    /**
     * A number that moves whenever an endpoint is disabled or enabled.
     *
     * @return the epoch
     */
    long epoch();

    /**
     * Runs {@code body} as the one endpoint writer.
     *
     * @param <T>  what it returns
     * @param body decide, commit, apply
     * @return what {@code body} returned
     */
    <T> T writing(Supplier<T> body);

    /**
     * Inside {@link #writing}, after the commit: {@code written} is what the store holds now.
     *
     * @param written the rows committed
     */
    void applied(List<EndpointRow> written);
}

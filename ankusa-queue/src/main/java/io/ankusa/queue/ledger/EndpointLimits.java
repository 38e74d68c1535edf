package io.ankusa.queue.ledger;

/**
 * The in-flight limits registered endpoints set for themselves ({@code EndpointSpec.maxInflight()}),
 * read from the registry's snapshot in memory: the dispatcher's admission step asks it per endpoint
 * and keeps the answer until {@link #generation()} moves.
 */
public interface EndpointLimits {

    /** Answered for an endpoint with no limit of its own, or no registered endpoint at all. */
    int NONE = 0;

    /**
     * A number that changes whenever a registered endpoint is added, updated, removed or erased:
     * an answer of {@link #maxInflight} read at one generation holds until the next.
     *
     * @return the registry's generation
     */
    long generation();

    /**
     * Whether any endpoint may have a limit of its own: while this is {@code false}, every
     * {@link #maxInflight} answer is {@link #NONE}, so a caller need neither ask nor keep answers.
     *
     * @return false when no endpoint was ever registered
     */
    default boolean any() {
        return true;
    }

    /**
     * The in-flight limit of the endpoint registered under {@code (ord, sink)}.
     *
     * @param ord  the tenant's ordinal
     * @param sink the endpoint's sink number
     * @return its limit, {@link #NONE} for none of its own or no registered endpoint
     */
    int maxInflight(long ord, int sink);
}

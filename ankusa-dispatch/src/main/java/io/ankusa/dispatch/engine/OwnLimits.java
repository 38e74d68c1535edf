package io.ankusa.dispatch.engine;

import io.ankusa.queue.ledger.EndpointLimits;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The registered endpoints' own in-flight limits as the admission step reads them per row: each
 * endpoint's answer is asked of the queue once and kept until the registry's generation moves,
 * when every answer is dropped and asked again on the endpoint's next row. So a row costs a map
 * look-up, and a store read happens once per endpoint per registry change.
 */
final class OwnLimits {

    /** The answers read at one generation. */
    private record Answers(long generation, ConcurrentHashMap<Long, Integer> byEndpoint) {
    }

    private final EndpointLimits limits;
    private volatile Answers answers;

    OwnLimits(EndpointLimits limits) {
        this.limits = Objects.requireNonNull(limits, "limits");
        this.answers = new Answers(limits.generation(), new ConcurrentHashMap<>());
    }

    /**
     * The endpoint's own limit.
     *
     * @param id   the endpoint's id ({@code EndpointRow.idOf(ord, sink)})
     * @param ord  its tenant's ordinal
     * @param sink its sink number
     * @return its limit, {@link EndpointLimits#NONE} for none
     */
    int of(long id, long ord, int sink) {
        if (!limits.any()) {
            return EndpointLimits.NONE; // no endpoint was ever registered: nothing to read or keep
        }
        long generation = limits.generation();
        Answers known = answers;
        if (known.generation() != generation) {
            // Read after the generation: the snapshot read below is at least as new as it.
            known = new Answers(generation, new ConcurrentHashMap<>());
            answers = known;
        }
        Integer limit = known.byEndpoint().get(id);
        return limit != null ? limit : known.byEndpoint().computeIfAbsent(id, k -> limits.maxInflight(ord, sink));
    }
}

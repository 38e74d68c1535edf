package io.ankusa.dispatch;

/** What {@link Replayer#replayDelivery} did with the one (hook, sink) it was asked to replay. */
public enum DeliveryReplay {

    /** It was a dead letter and is due again now, as a first attempt. */
    REPLAYED,

    /**
     * The tenant holds the hook and it has a delivery to that sink, but the delivery is not a dead
     * letter (due, in flight, quarantined or finished), or someone else revived or purged it first.
     */
    NOT_DEAD,

    /** The tenant is unknown, holds no hook of that seq, or the hook has no delivery to that sink. */
    NOT_FOUND
}

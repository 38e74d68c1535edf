package io.ankusa.api;

/**
 * One tenant's dead letters, from its counter.
 *
 * @param dead dead rows (deliveries that will not be retried unless revived)
 */
public record DeadStats(long dead) {

    /** A tenant with no dead letters. */
    public static final DeadStats EMPTY = new DeadStats(0);
}

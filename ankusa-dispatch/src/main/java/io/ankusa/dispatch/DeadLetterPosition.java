package io.ankusa.dispatch;

/**
 * Where a dead letter sits in the node's dead-letter queue, which is ordered by the time rows were
 * dead-lettered, then seq, then sink: a cursor for paging it.
 *
 * @param deadAt when the row was dead-lettered, epoch milliseconds
 * @param seq    the hook's commit sequence number
 * @param sink   the sink number
 */
public record DeadLetterPosition(long deadAt, long seq, int sink) {

    /** Validates. */
    public DeadLetterPosition {
        if (deadAt < 0 || seq < 0 || sink < 0 || sink > Delivery.MAX_SINK) {
            throw new IllegalArgumentException("not a dead-letter position: " + deadAt + ", " + seq + ", " + sink);
        }
    }
}

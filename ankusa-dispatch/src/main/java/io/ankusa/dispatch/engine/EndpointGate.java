package io.ankusa.dispatch.engine;

import io.ankusa.dispatch.sink.SinkOutcome;
import io.ankusa.queue.ledger.DueRow;
import java.util.Optional;

/**
 * The endpoint half of the admission step: asked by the scheduler for each due row it is about to
 * claim, after the tenant's own limits (in-flight, delivery rate) admitted the tenant. A row it
 * refuses stays due, untouched; the rows after it are still asked, so one held endpoint does not
 * hold up the tenant's others.
 *
 * <p>A refusal says until when it holds ({@link #admit}): a time on the scheduler's monotonic
 * clock (a pause, an open breaker), {@link #UNTIL_SETTLED} (the endpoint is at its concurrency
 * limit: one of the tenant's settles may free it) or {@link #UNTIL_CHANGED} (the endpoint is
 * disabled: only a move of {@link #epoch()} may change that). The scheduler uses it to park the
 * refused rows and not read them again while the refusal holds.
 *
 * <p>An admitted row holds one of its endpoint's slots until the sink's answer
 * ({@link #answered}) or until it turns out not to be sent ({@link #unclaimed}: gone before the
 * claim, quarantined, an orphan). Called on the tick thread ({@link #admit}, {@link #unclaimed},
 * {@link #shortCircuit}) and on the sinks' threads ({@link #answered}); implementations are
 * thread-safe.
 */
interface EndpointGate {

    /** {@link #admit} said yes. */
    long ADMITTED = Long.MIN_VALUE;
    /** {@link #admit} said no until one of the endpoint's attempts is answered. */
    long UNTIL_SETTLED = Long.MAX_VALUE - 1;
    /** {@link #admit} said no until {@link #epoch()} moves. */
    long UNTIL_CHANGED = Long.MAX_VALUE;

    /** Admits every row; counts nothing. */
    EndpointGate OPEN = new EndpointGate() {
    };

    /**
     * Whether {@code row} may be claimed now; when it may, one of its endpoint's slots is taken.
     *
     * @param row      a due row of a tenant the tenant limits admitted
     * @param nowNanos the scheduler's monotonic clock
     * @return {@link #ADMITTED}, or until when the refusal holds
     */
    default long admit(DueRow row, long nowNanos) {
        return ADMITTED;
    }

    /**
     * Whether a refusal of endpoint {@code (ord, sink)} until a time may also end earlier, with the
     * answer of one of its attempts out (an open breaker that a success sent before it opened
     * closes): the scheduler then reads the refused rows again after the tenant's next settle too.
     * Asked after a refusal until a time only.
     */
    default boolean mayEndOnAnswer(long ord, int sink) {
        return false;
    }

    /** A number that moves when a refusal {@link #UNTIL_CHANGED} may have ended. */
    default long epoch() {
        return 0;
    }

    /** An admitted row of endpoint {@code (ord, sink)} was not sent after all: its slot goes back. */
    default void unclaimed(long ord, int sink) {
    }

    /**
     * The outcome to settle an admitted row of endpoint {@code (ord, sink)} with instead of sending
     * it (a disabled endpoint whose deliveries are dead-lettered); empty to send it.
     */
    default Optional<SinkOutcome> shortCircuit(long ord, int sink) {
        return Optional.empty();
    }

    /**
     * The sink answered an admitted row of endpoint {@code (ord, sink)}: its slot goes back, and the outcome counts.
     */
    default void answered(long ord, int sink, SinkOutcome outcome, long nowNanos) {
    }
}

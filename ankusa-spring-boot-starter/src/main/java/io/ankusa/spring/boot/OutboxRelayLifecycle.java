package io.ankusa.spring.boot;

import io.ankusa.jdbc.OutboxRelay;
import java.util.Objects;
import org.springframework.context.SmartLifecycle;

/**
 * Starts the outbox relay after the queue is open and stops it before the queue closes: its phase
 * is between {@link QueueLifecycle#PHASE} and {@link PipelineLifecycle#PHASE}, and Spring starts
 * lower phases first and stops higher phases first. Stopping lets the relay finish its pass (its
 * ingests and its delete) and release the table's lock; rows not yet relayed stay in the table
 * for the next start.
 */
public final class OutboxRelayLifecycle implements SmartLifecycle {

    /** The relay's phase: starts after the queue is open, stops before it closes. */
    public static final int PHASE = QueueLifecycle.PHASE + 512;

    private final OutboxRelay relay;
    private volatile boolean running;

    /** @param relay the relay to start and stop; started once, a stopped relay does not start again */
    public OutboxRelayLifecycle(OutboxRelay relay) {
        this.relay = Objects.requireNonNull(relay, "relay");
    }

    @Override
    public void start() {
        relay.start();
        running = true;
    }

    @Override
    public void stop() {
        running = false;
        relay.close();
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    @Override
    public int getPhase() {
        return PHASE;
    }
}

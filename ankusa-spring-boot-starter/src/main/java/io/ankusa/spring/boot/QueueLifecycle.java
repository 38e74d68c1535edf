package io.ankusa.spring.boot;

import io.ankusa.queue.Queue;
import java.util.Objects;
import org.springframework.context.SmartLifecycle;

/**
 * Closes the queue when the application stops, in the last phase of Ankusa's two: after the
 * pipeline has stopped (so its settles of the attempts under way have committed) and after the
 * web server has stopped taking requests (whose handlers ingest). The queue is open from the
 * moment its bean exists, so that other beans may ingest while the context starts.
 */
public final class QueueLifecycle implements SmartLifecycle {

    /**
     * The queue's phase: below the web server's (which stops at {@code DEFAULT_PHASE - 2048}), so
     * it closes after the server has stopped taking requests.
     */
    public static final int PHASE = SmartLifecycle.DEFAULT_PHASE - 4096;

    private final Queue queue;
    private volatile boolean running;

    /** @param queue the queue to close on stop */
    public QueueLifecycle(Queue queue) {
        this.queue = Objects.requireNonNull(queue, "queue");
    }

    @Override
    public void start() {
        running = true;
    }

    /** Commits what the writer holds and closes the store. */
    @Override
    public void stop() {
        running = false;
        queue.close();
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

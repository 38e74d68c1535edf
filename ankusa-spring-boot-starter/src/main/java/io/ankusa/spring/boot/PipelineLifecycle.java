package io.ankusa.spring.boot;

import io.ankusa.dispatch.Pipeline;
import java.util.Objects;
import org.springframework.context.SmartLifecycle;

/**
 * Starts the pipeline with the application and stops it before the queue closes: its phase is
 * above {@link QueueLifecycle#PHASE}, and Spring stops higher phases first. Stopping waits up to
 * the sink deadline for the attempts under way to be settled; rows still unsettled then stay
 * inflight and return to due when the queue is next opened (at least once, never lost).
 */
public final class PipelineLifecycle implements SmartLifecycle {

    /** The pipeline's phase: stops before the queue closes, starts after it is open. */
    public static final int PHASE = QueueLifecycle.PHASE + 1024;

    private final Pipeline pipeline;
    private volatile boolean running;

    /** @param pipeline the pipeline to start and stop */
    public PipelineLifecycle(Pipeline pipeline) {
        this.pipeline = Objects.requireNonNull(pipeline, "pipeline");
    }

    @Override
    public void start() {
        pipeline.start();
        running = true;
    }

    @Override
    public void stop() {
        running = false;
        pipeline.close();
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

package io.ankusa.dispatch;

import java.util.concurrent.CompletionStage;

/**
 * Where a hook goes: delivers one attempt and reports how it ended.
 *
 * <p>An implementation returns promptly (the work happens asynchronously) and completes the stage
 * in bounded time with a {@link SinkOutcome}. It should not throw nor fail the stage: the
 * {@link Sinks} router turns a thrown exception or a failed stage into a
 * {@linkplain SinkOutcome.Retry retry}, so a bug in a sink costs retries, never a lost hook.
 * Delivery is at least once: the same hook may come again, with the same
 * {@link Delivery#hookId()}, after a retry, a replay or a crash of the node.
 *
 * @see io.ankusa.dispatch.http.HttpSink
 */
@FunctionalInterface
public interface Sink {

    /**
     * Starts delivering {@code delivery}; the stage completes with the outcome.
     *
     * @param delivery the attempt: the hook, its tenant, its sink number and the attempt's number
     * @return a stage completing with the outcome; a stage that fails is settled as a retry
     */
    CompletionStage<SinkOutcome> deliver(Delivery delivery);
}

package io.ankusa.dispatch;

import io.ankusa.api.QueueHealth;
import io.ankusa.dispatch.report.DispatchHealth;
import io.ankusa.queue.Queue;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A node's health, judged from its queue and its pipeline: DOWN only for what is wrong with the node,
 * never for one tenant's bad day.
 *
 * <p>DOWN when the queue is not running (closed, or a long-lived thread died: the tick loop among
 * them), when the oldest row the pipeline should be delivering now is older than
 * {@link HealthLimits#maxDeliverableAge()}, when a started pipeline's tick loop has not ended a tick
 * for {@link HealthLimits#maxTickSilence()}, or when the sink has given no outcome for
 * {@link HealthLimits#maxSinkSilence()} while its attempts run out the sink deadline. Rows held back
 * by design — a tenant at its in-flight limit or delivery rate, an endpoint disabled, paused, behind
 * an open breaker or at its concurrency limit — are reported ({@link DispatchHealth#held()}) and
 * never turn it DOWN: a restart fixes none of them and interrupts every other tenant.
 *
 * <p>Without a pipeline (a node that only ingests, or a monitor), the age judged is the queue's
 * oldest due age ({@link Queue#oldestDueAge()}), held rows included: nothing knows which are held.
 *
 * @param status   UP or DOWN
 * @param problems why it is DOWN; empty when UP
 * @param queue    the queue's own health
 * @param dispatch the pipeline's health facts, when there is a pipeline
 */
public record NodeHealth(Status status, List<Problem> problems, QueueHealth queue, Optional<DispatchHealth> dispatch) {

    /** Whether the node is up. */
    public enum Status {
        /** Nothing wrong with the node. */
        UP,
        /** Something is wrong with the node; {@link #problems()} says what. */
        DOWN
    }

    /** What turned the node down. */
    public enum Code {
        /** The queue is closed or failed (a long-lived thread, the tick loop included, died). */
        QUEUE_NOT_RUNNING,
        /** The pipeline was closed. */
        PIPELINE_CLOSED,
        /** The oldest row the node should be delivering now waited past the limit: dispatch is not keeping up. */
        BACKLOG_TOO_OLD,
        /** The tick loop has not ended a tick within the limit: it hangs. */
        TICK_LOOP_SILENT,
        /** The sink gave no outcome within the limit while its attempts ran out the deadline. */
        SINK_SILENT
    }

    /**
     * One reason the node is down.
     *
     * @param code    what it is
     * @param message what was measured against what limit
     */
    public record Problem(Code code, String message) {

        /**
         * Validates.
         *
         * @param code what it is
         * @param message what was measured against what limit
         */
        public Problem {
            Objects.requireNonNull(code, "code");
            Objects.requireNonNull(message, "message");
        }
    }

    /**
     * Validates and copies the list.
     *
     * @param status UP or DOWN
     * @param problems why it is DOWN; empty when UP
     * @param queue the queue's own health
     * @param dispatch the pipeline's health facts, when there is a pipeline
     */
    public NodeHealth {
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(queue, "queue");
        Objects.requireNonNull(dispatch, "dispatch");
        problems = List.copyOf(problems);
        if ((status == Status.UP) != problems.isEmpty()) {
            throw new IllegalArgumentException("a node is DOWN exactly when it has a problem: " + status + " "
                    + problems);
        }
    }

    /**
     * Judges a node now.
     *
     * @param queue    the node's queue
     * @param pipeline its pipeline, or empty when it has none
     * @param limits   what to judge by
     * @return the node's health
     */
    public static NodeHealth of(Queue queue, Optional<Pipeline> pipeline, HealthLimits limits) {
        Objects.requireNonNull(queue, "queue");
        Objects.requireNonNull(pipeline, "pipeline");
        Objects.requireNonNull(limits, "limits");
        QueueHealth queueHealth = queue.health();
        List<Problem> problems = new ArrayList<>();
        if (!queueHealth.running()) {
            problems.add(new Problem(Code.QUEUE_NOT_RUNNING, "the queue is " + queueHealth.state()
                    + queueHealth.component().map(c -> " (" + c + ")").orElse("")));
            return new NodeHealth(Status.DOWN, problems, queueHealth, Optional.empty());
        }
        Optional<DispatchHealth> dispatch = Optional.empty();
        if (pipeline.isPresent()) {
            try {
                dispatch = Optional.of(pipeline.get().dispatchHealth());
            } catch (IllegalStateException closed) {
                problems.add(new Problem(Code.PIPELINE_CLOSED, "the pipeline is closed"));
            }
        }
        Optional<Duration> age = pipeline.isEmpty() ? queue.oldestDueAge()
                : dispatch.flatMap(DispatchHealth::oldestDeliverableAge);
        if (age.isPresent() && limits.maxDeliverableAge().isPresent()
                && age.get().compareTo(limits.maxDeliverableAge().get()) > 0) {
            problems.add(new Problem(Code.BACKLOG_TOO_OLD, "the oldest deliverable row has been due for " + age.get()
                    + ", past " + limits.maxDeliverableAge().get()));
        }
        dispatch.ifPresent(d -> {
            Optional<Duration> sinceTick = d.sinceLastTick();
            if (d.ticking() && sinceTick.isPresent() && sinceTick.get().compareTo(limits.maxTickSilence()) > 0) {
                problems.add(new Problem(Code.TICK_LOOP_SILENT, "the tick loop has not ended a tick for "
                        + sinceTick.get() + ", past " + limits.maxTickSilence()));
            }
            if (d.sinkSilentFor().isPresent() && d.sinkSilentFor().get().compareTo(limits.maxSinkSilence()) > 0) {
                problems.add(new Problem(Code.SINK_SILENT, "the sink has given no outcome for "
                        + d.sinkSilentFor().get() + " while its attempts ran out the sink deadline, past "
                        + limits.maxSinkSilence()));
            }
        });
        return new NodeHealth(problems.isEmpty() ? Status.UP : Status.DOWN, problems, queueHealth, dispatch);
    }
}

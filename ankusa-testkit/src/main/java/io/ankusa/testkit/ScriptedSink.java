package io.ankusa.testkit;

import io.ankusa.dispatch.sink.Delivery;
import io.ankusa.dispatch.sink.Sink;
import io.ankusa.dispatch.sink.SinkOutcome;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/**
 * A sink that answers at once with what a script says for each delivery (delivered by default),
 * and remembers every delivery it saw, in order. Safe to call from the pipeline's threads while a
 * test reads it.
 */
public final class ScriptedSink implements Sink {

    private final Function<Delivery, SinkOutcome> script;
    private final List<Delivery> seen = new CopyOnWriteArrayList<>();
    private final Map<String, Integer> attemptsByHook = new ConcurrentHashMap<>();

    /**
     * A sink that answers each delivery with what {@code script} returns for it.
     *
     * @param script the outcome of each delivery; called once per attempt, on a pipeline thread
     */
    public ScriptedSink(Function<Delivery, SinkOutcome> script) {
        this.script = Objects.requireNonNull(script, "script");
    }

    /**
     * A sink that delivers everything.
     *
     * @return the sink
     */
    public static ScriptedSink delivering() {
        return new ScriptedSink(d -> SinkOutcome.delivered());
    }

    @Override
    public CompletionStage<SinkOutcome> deliver(Delivery delivery) {
        seen.add(delivery);
        attemptsByHook.merge(delivery.hookId(), 1, Integer::sum);
        return CompletableFuture.completedFuture(script.apply(delivery));
    }

    /**
     * Every delivery seen, in order.
     *
     * @return a copy of the deliveries seen so far
     */
    public List<Delivery> seen() {
        return List.copyOf(seen);
    }

    /**
     * The hook ids seen, in order, one per attempt.
     *
     * @return the hook ids of the deliveries seen so far
     */
    public List<String> hookIds() {
        return seen.stream().map(Delivery::hookId).toList();
    }

    /**
     * The attempts seen of one hook.
     *
     * @param hookId the hook's id
     * @return how many times the sink was asked to deliver it (0 if never)
     */
    public int attempts(String hookId) {
        return attemptsByHook.getOrDefault(hookId, 0);
    }
}

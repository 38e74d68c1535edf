package io.ankusa.tests.dispatch;

import io.ankusa.dispatch.Delivery;
import io.ankusa.dispatch.Sink;
import io.ankusa.dispatch.SinkOutcome;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/**
 * A sink that answers at once with what a script says for each delivery (delivered by default),
 * and remembers every delivery it saw, in order.
 */
final class ScriptedSink implements Sink {

    private final Function<Delivery, SinkOutcome> script;
    private final List<Delivery> seen = new CopyOnWriteArrayList<>();
    private final Map<String, Integer> attemptsByHook = new ConcurrentHashMap<>();

    ScriptedSink(Function<Delivery, SinkOutcome> script) {
        this.script = script;
    }

    /** Delivers everything. */
    static ScriptedSink delivering() {
        return new ScriptedSink(d -> SinkOutcome.delivered());
    }

    @Override
    public CompletionStage<SinkOutcome> deliver(Delivery delivery) {
        seen.add(delivery);
        attemptsByHook.merge(delivery.hookId(), 1, Integer::sum);
        return CompletableFuture.completedFuture(script.apply(delivery));
    }

    /** Every delivery seen, in order. */
    List<Delivery> seen() {
        return List.copyOf(seen);
    }

    /** Hook ids seen, in order. */
    List<String> hookIds() {
        return seen.stream().map(Delivery::hookId).toList();
    }

    /** Attempts seen of {@code hookId}. */
    int attempts(String hookId) {
        return attemptsByHook.getOrDefault(hookId, 0);
    }
}

package io.ankusa.cli.demo;

import io.ankusa.dispatch.sink.Delivery;
import io.ankusa.dispatch.sink.Sink;
import io.ankusa.dispatch.sink.SinkOutcome;
import java.util.Objects;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.LongAdder;

/** Counts the outcomes of the sink it wraps: delivered, retry requested, dead. Thread-safe. */
public final class CountingSink implements Sink {

    private final Sink sink;
    private final LongAdder delivered = new LongAdder();
    private final LongAdder retried = new LongAdder();
    private final LongAdder dead = new LongAdder();

    /** Counts what {@code sink} answers. */
    public CountingSink(Sink sink) {
        this.sink = Objects.requireNonNull(sink, "sink");
    }

    @Override
    public CompletionStage<SinkOutcome> deliver(Delivery delivery) {
        return sink.deliver(delivery).thenApply(outcome -> {
            if (outcome instanceof SinkOutcome.Delivered) {
                delivered.increment();
            } else if (outcome instanceof SinkOutcome.Retry) {
                retried.increment();
            } else {
                dead.increment(); // Dead and the endpoint outcomes: all dead-lettered
            }
            return outcome;
        });
    }

    /** Attempts the sink took. */
    public long delivered() {
        return delivered.sum();
    }

    /** Attempts that failed with a retry request (the retry policy may still have given up). */
    public long retried() {
        return retried.sum();
    }

    /** Attempts that failed for good. */
    public long dead() {
        return dead.sum();
    }
}

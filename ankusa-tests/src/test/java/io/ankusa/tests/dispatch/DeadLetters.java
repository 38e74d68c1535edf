package io.ankusa.tests.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.api.Hook;
import io.ankusa.api.Receipt;
import io.ankusa.dispatch.Pipeline;
import io.ankusa.dispatch.sink.SinkOutcome;
import io.ankusa.testkit.ScriptedSink;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/** Makes dead letters in bulk: ingests the hooks, then ticks a dead-lettering pipeline until all are dead. */
final class DeadLetters {

    private DeadLetters() {
    }

    /**
     * Ingests {@code hooks} (one sink each) and dead-letters them with the reason {@code reason} gives
     * each hook id.
     */
    static void make(DispatchFixture f, List<Hook> hooks, Function<String, String> reason) {
        long deadBefore = f.queue().stats().dead();
        List<CompletableFuture<Receipt>> receipts = new ArrayList<>();
        for (Hook hook : hooks) {
            receipts.add(f.queue().ingest(hook).toCompletableFuture());
        }
        receipts.forEach(CompletableFuture::join);
        ScriptedSink sink = new ScriptedSink(d -> SinkOutcome.dead(reason.apply(d.hookId())));
        try (Pipeline pipeline = f.pipeline(sink, b -> b.rowsPerTick(1024).concurrency(1024))) {
            for (int tick = 0; tick < hooks.size() + 10 && f.queue().stats().dead() < deadBefore + hooks.size(); tick++) {
                DispatchFixture.await(pipeline.tick());
            }
        }
        assertThat(f.queue().stats().dead()).as("all dead-lettered").isEqualTo(deadBefore + hooks.size());
    }

    /** {@code n} hooks {@code prefix0..prefix(n-1)} of {@code tenant} from {@code source}, sink 0. */
    static List<Hook> hooks(String prefix, int n, String tenant, String source) {
        List<Hook> hooks = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            hooks.add(Hook.builder().id(prefix + i).tenantId(tenant).sourceId(source).payload("{}").sinks(0).build());
        }
        return hooks;
    }
}

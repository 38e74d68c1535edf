package io.ankusa.tests.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.api.AttemptErrorClass;
import io.ankusa.api.Hook;
import io.ankusa.dispatch.Pipeline;
import io.ankusa.dispatch.Replayer;
import io.ankusa.dispatch.sink.OrderingPolicy;
import io.ankusa.dispatch.sink.SinkOutcome;
import io.ankusa.tests.queue.QueueUnderTest;
import java.nio.file.Path;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** {@code ankusa attempts}: a tenant's or a hook's attempt history, newest first, as a table or JSON. */
class AttemptsCommandTest {

    @TempDir
    Path dir;

    private CliRun run(String backend, String... args) {
        return CliRun.against(dir, backend, args);
    }

    /** Tenant "acme": hook "h-1" answered 503 on sink 0 and delivered on sink 1; hook "h-2" delivered. */
    private void storeWithHistory(String backend) {
        try (QueueUnderTest q = QueueUnderTest.open(backend, dir)) {
            q.ingest(QueueUnderTest.hook("h-1", "acme", 0, 1));
            q.ingest(QueueUnderTest.hook("h-2", "acme", 1));
            try (Pipeline pipeline = Pipeline.builder(q.queue(), d -> CompletableFuture.completedFuture(d.sink() == 0
                    ? new SinkOutcome.Retry(Optional.empty(), "http 503", OptionalInt.of(503), AttemptErrorClass.HTTP_5XX)
                    : SinkOutcome.delivered(200))).manual()) {
                pipeline.tick().toCompletableFuture().join();
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void listsATenantsAndAHooksAttempts(String backend) {
        storeWithHistory(backend);

        CliRun tenant = run(backend, "attempts", "--tenant", "acme");
        CliRun hook = run(backend, "attempts", "--tenant", "acme", "--hook", "h-1", "--json");
        CliRun paged = run(backend, "attempts", "--tenant", "acme", "--limit", "1");
        CliRun unknown = run(backend, "attempts", "--tenant", "nobody");

        assertThat(tenant.exit()).as(tenant.err()).isZero();
        assertThat(tenant.out()).contains("h-1", "h-2", "http_5xx", "503", "200", "retry", "delivered")
                .contains("3 attempts; no more");
        assertThat(hook.exit()).as(hook.err()).isZero();
        assertThat(hook.out().lines().count()).isEqualTo(1);
        assertThat(hook.out()).contains("\"hook\":\"h-1\"").doesNotContain("h-2")
                .contains("\"status\":503").contains("\"errorClass\":\"http_5xx\"").contains("\"status\":200")
                .contains("\"next\":null");
        assertThat(paged.out()).contains("1 attempts; next page: --after ");
        assertThat(unknown.exit()).isEqualTo(6);
        assertThat(unknown.err()).contains("unknown tenant 'nobody'");
    }

    /**
     * Hook "k-1" of key "k": skipped for order at its first failed attempt, replayed, then delivered
     * out of its key's order (the replay's attempt 1 takes the slot of the skipped one); hook "p-1",
     * without a key, delivered at once. The table and the JSON say which attempt was out of order.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void anAttemptOutOfItsKeysOrderIsMarked(String backend) {
        try (QueueUnderTest q = QueueUnderTest.open(backend, dir)) {
            q.ingest(Hook.builder().id("k-1").sourceId("test").tenantId("acme").payload("{}").sinks(0)
                    .orderingKey("k").build());
            q.ingest(QueueUnderTest.hook("p-1", "acme", 0));
            boolean[] up = {false};
            try (Pipeline pipeline = Pipeline.builder(q.queue(), d -> CompletableFuture.completedFuture(
                    up[0] || d.hookId().equals("p-1") ? SinkOutcome.delivered(200) : SinkOutcome.retry("down")))
                    .orderingPolicy(OrderingPolicy.skipAfter(1)).manual()) {
                pipeline.tick().toCompletableFuture().join();
                assertThat(Replayer.of(q.queue()).replayHook("acme", "k-1").revived()).isEqualTo(1);
                up[0] = true;
                pipeline.tick().toCompletableFuture().join();
            }
        }

        CliRun table = run(backend, "attempts", "--tenant", "acme");
        CliRun json = run(backend, "attempts", "--tenant", "acme", "--json");

        assertThat(table.exit()).as(table.err()).isZero();
        assertThat(table.out()).contains("delivered (out of order)").contains("p-1").contains("2 attempts; no more");
        assertThat(table.out().lines().filter(l -> l.contains("out of order")).count()).isEqualTo(1);
        assertThat(json.out()).contains("\"outcome\":\"delivered\"").contains("\"outOfOrder\":true")
                .contains("\"outOfOrder\":false");
    }
}

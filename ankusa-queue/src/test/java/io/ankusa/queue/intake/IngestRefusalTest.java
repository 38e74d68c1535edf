package io.ankusa.queue.intake;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ankusa.api.Hook;
import io.ankusa.api.InvalidHookException.Reason;
import io.ankusa.api.InvalidHookException;
import io.ankusa.api.QueueStats;
import io.ankusa.tests.queue.Backends;
import io.ankusa.tests.queue.QueueUnderTest;
import io.ankusa.tests.queue.StoreSnapshot;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every input refusal of ingest: the exception names the broken rule, and
 * nothing is written — the store is byte-for-byte what it was, and a valid hook right after is
 * accepted with seq 1. Most rules are enforced when the {@link Hook} is built (an invalid hook
 * cannot exist); the payload limit is the queue's configuration and is enforced by ingest.
 */
class IngestRefusalTest {

    @TempDir
    Path dir;

    private static Hook.Builder valid() {
        return Hook.builder().id("id").sourceId("src").payload("{}").sinks(0, 1);
    }

    static Stream<Arguments> refusals() {
        List<Arguments> cases = List.of(
                Arguments.of("missing id", Reason.MISSING_ID, (Supplier<Hook>) () -> Hook.builder().sourceId("s").sinks(0).build()),
                Arguments.of("empty id", Reason.MISSING_ID, (Supplier<Hook>) () -> valid().id("").build()),
                Arguments.of("id with a full stop", Reason.INVALID_ID, (Supplier<Hook>) () -> valid().id("x.1").build()),
                Arguments.of("id with a space", Reason.INVALID_ID, (Supplier<Hook>) () -> valid().id("a b").build()),
                Arguments.of("id with non-ASCII", Reason.INVALID_ID, (Supplier<Hook>) () -> valid().id("caf\u00e9").build()),
                Arguments.of("missing source", Reason.MISSING_SOURCE, (Supplier<Hook>) () -> Hook.builder().id("i").sinks(0).build()),
                Arguments.of("empty source", Reason.MISSING_SOURCE, (Supplier<Hook>) () -> valid().sourceId("").build()),
                Arguments.of("tenant id empty", Reason.TENANT_EMPTY, (Supplier<Hook>) () -> valid().tenantId("").build()),
                Arguments.of("tenant id over 255 UTF-8 bytes", Reason.TENANT_TOO_LONG,
                        (Supplier<Hook>) () -> valid().tenantId("é".repeat(128)).build()),
                Arguments.of("tenant id containing NUL", Reason.TENANT_CONTAINS_NUL,
                        (Supplier<Hook>) () -> valid().tenantId("a\0b").build()),
                Arguments.of("idempotency key empty", Reason.IDEMPOTENCY_KEY_EMPTY,
                        (Supplier<Hook>) () -> valid().idempotencyKey("").build()),
                Arguments.of("idempotency key over 255 UTF-8 bytes", Reason.IDEMPOTENCY_KEY_TOO_LONG,
                        (Supplier<Hook>) () -> valid().idempotencyKey("é".repeat(128)).build()),
                Arguments.of("no sinks", Reason.NO_SINKS, (Supplier<Hook>) () -> Hook.builder().id("i").sourceId("s").build()),
                Arguments.of("duplicate sink", Reason.DUPLICATE_SINK, (Supplier<Hook>) () -> valid().addSink(1).build()),
                Arguments.of("negative sink", Reason.SINK_OUT_OF_RANGE, (Supplier<Hook>) () -> valid().sinks(-1).build()),
                Arguments.of("sink over 65535", Reason.SINK_OUT_OF_RANGE, (Supplier<Hook>) () -> valid().sinks(65536).build()),
                Arguments.of("payload over the limit", Reason.PAYLOAD_TOO_LARGE,
                        (Supplier<Hook>) () -> valid().payload(new byte[1025]).build()));
        return Backends.names().flatMap(backend -> cases.stream()
                .map(c -> Arguments.of(backend, c.get()[0], c.get()[1], c.get()[2])));
    }

    @ParameterizedTest(name = "refuses {1} [{0}]")
    @MethodSource("refusals")
    void refusesWithTheRuleAndWritesNothing(String backend, String label, Reason reason, Supplier<Hook> hook) {
        try (QueueUnderTest q = QueueUnderTest.open(backend, dir, b -> b.payloadMaxBytes(1024))) {
            List<String> before = StoreSnapshot.of(q.store());

            assertThatThrownBy(() -> q.ingest(hook.get()))
                    .as(label)
                    .isInstanceOfSatisfying(InvalidHookException.class, e -> {
                        assertThat(e.reason()).isEqualTo(reason);
                        assertThat(e.error()).isEqualTo("invalid_hook");
                        assertThat(e.getMessage()).startsWith(reason.code() + ": ");
                    });

            assertThat(StoreSnapshot.of(q.store())).as("nothing written").isEqualTo(before);
            assertThat(q.queue().stats()).isEqualTo(new QueueStats(0, 0, 0, 0, 0, 0));
            assertThat(q.queue().tenantCount()).isZero();
            assertThat(q.ingest(valid().payload(new byte[1024]).build()).seq()).as("the next hook is the first").isEqualTo(1);
        }
    }
}

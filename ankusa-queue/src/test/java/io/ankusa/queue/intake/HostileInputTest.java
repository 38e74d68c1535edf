package io.ankusa.queue.intake;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ankusa.api.AnkusaException;
import io.ankusa.api.Hook;
import io.ankusa.api.InvalidHookException;
import io.ankusa.api.QueueStats;
import io.ankusa.api.TenantStats;
import io.ankusa.tests.queue.Backends;
import io.ankusa.tests.queue.QueueUnderTest;
import io.ankusa.tests.queue.StoreSnapshot;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Supplier;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Hostile or unlucky input through {@code Queue.ingest} on both backends: each is refused with a
 * typed error naming the rule, nothing is written (the store is byte-for-byte what it was), and
 * what was acknowledged before stays.
 */
class HostileInputTest {

    @TempDir
    Path dir;

    private static Hook.Builder valid() {
        return Hook.builder().id("id").sourceId("src").payload("{}").sinks(0);
    }

    /** Refuses {@code hook} with {@code code} and writes nothing. */
    private static void refusedUnchanged(QueueUnderTest q, Supplier<Hook> hook, String code) {
        List<String> before = StoreSnapshot.of(q.store());
        QueueStats stats = q.queue().stats();
        long tenants = q.queue().tenantCount();
        assertThatThrownBy(() -> q.ingest(hook.get()))
                .isInstanceOfSatisfying(InvalidHookException.class, e -> {
                    assertThat(e.reason().code()).isEqualTo(code);
                    assertThat(e.getMessage()).startsWith(code + ": ");
                });
        assertThat(StoreSnapshot.of(q.store())).as("nothing written").isEqualTo(before);
        assertThat(q.queue().stats()).isEqualTo(stats);
        assertThat(q.queue().tenantCount()).isEqualTo(tenants);
    }

    @ParameterizedTest(name = "[{0}]")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aHookWith65536SinksIsRefusedNeverAcknowledgedAndDropped(String backend) {
        try (QueueUnderTest q = QueueUnderTest.open(backend, dir)) {
            int[] every = IntStream.rangeClosed(0, 0xFFFF).toArray();
            refusedUnchanged(q, () -> valid().addSink(0).build(), "duplicate_sink");
            refusedUnchanged(q, () -> Hook.builder().id("id").sourceId("src").sinks(every).build(), "too_many_sinks");
            assertThat(q.ingest(valid().build()).seq()).isEqualTo(1);
        }
    }

    @ParameterizedTest(name = "[{0}]")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void tenantsThatDifferOnlyInAnUnpairedSurrogateAreNeverMerged(String backend) {
        try (QueueUnderTest q = QueueUnderTest.open(backend, dir)) {
            q.ingest(valid().tenantId("x?").build());
            for (String tenant : List.of("x\uD800", "x\uDC00")) {
                refusedUnchanged(q, () -> valid().id("other").tenantId(tenant).build(), "tenant_invalid");
                assertThat(q.queue().pendingForTenant(tenant)).as("a read of %s", tenant).isEqualTo(TenantStats.EMPTY);
                assertThat(q.ord(tenant)).as("the ordinal of %s", tenant).isEmpty();
            }
            assertThat(q.queue().tenantCount()).isEqualTo(1);
            assertThat(q.queue().pendingForTenant("x?").pending()).isEqualTo(1);
        }
    }

    @ParameterizedTest(name = "[{0}]")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void idempotencyKeysThatDifferOnlyInAnUnpairedSurrogateNeverShareAReceipt(String backend) {
        try (QueueUnderTest q = QueueUnderTest.open(backend, dir)) {
            refusedUnchanged(q, () -> valid().id("first").idempotencyKey("k\uD800").build(), "idempotency_key_invalid");
            refusedUnchanged(q, () -> valid().id("second").idempotencyKey("k\uDC00").build(), "idempotency_key_invalid");
            assertThat(q.ingest(valid().id("third").idempotencyKey("k?").build()).hookId()).isEqualTo("third");
            assertThat(q.ingest(valid().id("fourth").idempotencyKey("k\uD800\uDC00").build()).hookId())
                    .as("a valid pair is a different key").isEqualTo("fourth");
        }
    }

    static Stream<Arguments> unboundedOrUnchecked() {
        String ok255 = "t".repeat(255);
        List<Arguments> cases = List.of(
                Arguments.of("hook id over 255 bytes", "id_too_long", (Supplier<Hook>) () -> valid().id("i".repeat(256)).build()),
                Arguments.of("source id over 255 UTF-8 bytes", "source_too_long",
                        (Supplier<Hook>) () -> valid().sourceId("\u00e9".repeat(128)).build()),
                Arguments.of("source id with a line break", "source_invalid",
                        (Supplier<Hook>) () -> valid().sourceId("a\nb").build()),
                Arguments.of("source id with an unpaired surrogate", "source_invalid",
                        (Supplier<Hook>) () -> valid().sourceId("s\uD800").build()),
                Arguments.of("tenant id with a terminal escape", "tenant_invalid",
                        (Supplier<Hook>) () -> valid().tenantId("evil\u001b[2J").build()),
                Arguments.of("tenant id with a line break", "tenant_invalid",
                        (Supplier<Hook>) () -> valid().tenantId("acme\ntenants 0").build()),
                Arguments.of("tenant id with a C1 control", "tenant_invalid",
                        (Supplier<Hook>) () -> valid().tenantId("a\u009bb").build()),
                Arguments.of("tenant id with a bidi override", "tenant_invalid",
                        (Supplier<Hook>) () -> valid().tenantId("a\u202eb").build()),
                Arguments.of("empty header name", "header_name_invalid",
                        (Supplier<Hook>) () -> valid().header("", "v").build()),
                Arguments.of("header name with a space", "header_name_invalid",
                        (Supplier<Hook>) () -> valid().header("x a", "v").build()),
                Arguments.of("header name with a colon", "header_name_invalid",
                        (Supplier<Hook>) () -> valid().header("x:a", "v").build()),
                Arguments.of("header value with CR LF", "header_value_invalid",
                        (Supplier<Hook>) () -> valid().header("x-a", "v\r\nx-injected: 1").build()),
                Arguments.of("header value with NUL", "header_value_invalid",
                        (Supplier<Hook>) () -> valid().header("x-a", "v\0").build()),
                Arguments.of("header value with an unpaired surrogate", "header_value_invalid",
                        (Supplier<Hook>) () -> valid().header("x-a", "v\uDC00").build()),
                Arguments.of("65 headers", "too_many_headers", (Supplier<Hook>) () -> {
                    Hook.Builder b = valid();
                    IntStream.range(0, 65).forEach(i -> b.header("x-" + i, "v"));
                    return b.build();
                }),
                Arguments.of("headers over 16 KiB", "headers_too_large",
                        (Supplier<Hook>) () -> valid().header("x-a", "v".repeat(16 * 1024)).build()),
                Arguments.of("tenant id and idempotency key over 501 bytes together", "idempotency_key_too_long",
                        (Supplier<Hook>) () -> valid().tenantId(ok255).idempotencyKey("k".repeat(247)).build()));
        return Backends.names().flatMap(backend -> cases.stream()
                .map(c -> Arguments.of(backend, c.get()[0], c.get()[1], c.get()[2])));
    }

    @ParameterizedTest(name = "refuses {1} [{0}]")
    @MethodSource("unboundedOrUnchecked")
    void unboundedOrUncheckedInputIsRefusedAtBuild(String backend, String label, String code, Supplier<Hook> hook) {
        try (QueueUnderTest q = QueueUnderTest.open(backend, dir)) {
            refusedUnchanged(q, hook, code);
            assertThat(q.ingest(valid().build()).seq()).as("the next hook is the first").isEqualTo(1);
        }
    }

    @ParameterizedTest(name = "[{0}]")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void theLongestTenantIdWithTheLongestIdempotencyKeyItAllowsIsStoredOnEveryBackend(String backend) {
        try (QueueUnderTest q = QueueUnderTest.open(backend, dir)) {
            Hook hook = valid().tenantId("t".repeat(255)).idempotencyKey("k".repeat(246))
                    .header("x-a", "v".repeat(16 * 1024 - 3)).build();
            assertThat(q.ingest(hook).seq()).isEqualTo(1);
            assertThat(q.ingest(valid().id("again").tenantId("t".repeat(255)).idempotencyKey("k".repeat(246)).build())
                    .hookId()).as("the key deduplicates").isEqualTo("id");
        }
    }

    @ParameterizedTest(name = "[{0}]")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aClockBeforeTheEpochRefusesIngestWithATypedErrorAndLosesNothing(String backend) {
        try (QueueUnderTest q = QueueUnderTest.open(backend, dir)) {
            // The queue clock never goes back once the queue has read it, so the clock is before the
            // epoch from the open of a store that never persisted a queue time.
            long back = q.clock().millis() + 1_000;
            q.clock().advance(-back);
            q.reopen();
            List<String> before = StoreSnapshot.of(q.store());
            QueueStats stats = q.queue().stats();
            assertThatThrownBy(() -> q.ingest(valid().id("during").build()))
                    .isInstanceOfSatisfying(AnkusaException.class, e -> {
                        assertThat(e.error()).isEqualTo("clock_before_epoch");
                        assertThat(e.getMessage()).contains("-1000");
                    });
            assertThat(StoreSnapshot.of(q.store())).as("nothing written").isEqualTo(before);
            assertThat(q.queue().stats()).isEqualTo(stats);

            q.clock().advance(back);
            assertThat(q.ingest(valid().id("after").build()).seq()).as("the writer lives on").isEqualTo(1);

            // Once it ran, a step of the wall clock to before the epoch leaves the queue clock where it was.
            q.clock().advance(-back);
            assertThat(q.ingest(valid().id("stepped").build()).seq()).as("stamped with the queue clock").isEqualTo(2);
            q.reopen();
            assertThat(q.ingest(valid().id("reopened").build()).seq()).as("m:clock, not the wall").isEqualTo(3);
            assertThat(q.queue().stats().pending()).as("every acknowledged hook kept").isEqualTo(3);
        }
    }
}

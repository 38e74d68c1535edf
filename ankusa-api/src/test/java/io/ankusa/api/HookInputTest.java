package io.ankusa.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ankusa.api.InvalidHookException.Reason;
import java.util.List;
import java.util.function.Supplier;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The input rules of {@link Hook.Builder#build()} beyond the id: valid UTF-16, the bounds, each sink once. */
class HookInputTest {

    private static Hook.Builder valid() {
        return Hook.builder().id("id").sourceId("src").sinks(0);
    }

    static Stream<Arguments> malformed() {
        return Stream.of("\uD800", "\uDC00", "x\uD800", "x\uDC00", "\uDC00\uD800", "x\uD800y")
                .flatMap(bad -> Stream.of(
                        Arguments.of("source id", bad, Reason.SOURCE_INVALID, (Supplier<Hook>) () -> valid().sourceId(bad).build()),
                        Arguments.of("tenant id", bad, Reason.TENANT_INVALID, (Supplier<Hook>) () -> valid().tenantId(bad).build()),
                        Arguments.of("idempotency key", bad, Reason.IDEMPOTENCY_KEY_INVALID,
                                (Supplier<Hook>) () -> valid().idempotencyKey(bad).build()),
                        Arguments.of("header name", bad, Reason.HEADER_NAME_INVALID,
                                (Supplier<Hook>) () -> valid().header(bad, "v").build()),
                        Arguments.of("header value", bad, Reason.HEADER_VALUE_INVALID,
                                (Supplier<Hook>) () -> valid().header("x-a", bad).build()),
                        Arguments.of("hook id", bad, Reason.INVALID_ID, (Supplier<Hook>) () -> valid().id(bad).build()),
                        Arguments.of("payload text", bad, Reason.PAYLOAD_INVALID, (Supplier<Hook>) () -> valid().payload(bad).build())));
    }

    @ParameterizedTest(name = "{0} \"{1}\"")
    @MethodSource("malformed")
    void stringsThatAreNotValidUtf16AreRefused(String field, String bad, Reason reason, Supplier<Hook> hook) {
        assertThatThrownBy(hook::get).as(field)
                .isInstanceOfSatisfying(InvalidHookException.class, e -> assertThat(e.reason()).isEqualTo(reason));
    }

    @Test
    void validSurrogatePairsAndLettersOfEveryScriptAreAccepted() {
        String emoji = "\uD83D\uDE00";
        Hook hook = valid().sourceId("src-" + emoji).tenantId("\u6771\u4eac-" + emoji).idempotencyKey("k" + emoji)
                .header("x-latin1", "caf\u00e9\tok").payload("{\"e\":\"" + emoji + "\"}").build();
        assertThat(hook.tenant()).endsWith(emoji);
    }

    @Test
    void everyBoundAdmitsItsLimitAndRefusesOneMore() {
        assertThat(valid().id("i".repeat(Hook.ID_MAX_BYTES)).build().id()).hasSize(255);
        assertThat(valid().sourceId("\u00e9".repeat(127) + "s").build().sourceId()).hasSize(128);
        Hook.Builder sixtyFour = valid();
        IntStream.range(0, Hook.HEADERS_MAX).forEach(i -> sixtyFour.header("h" + i, ""));
        assertThat(sixtyFour.build().headers()).hasSize(64);
        assertThat(valid().header("x", "v".repeat(Hook.HEADERS_MAX_BYTES - 1)).build().headers()).hasSize(1);
        assertThatThrownBy(() -> valid().header("x", "v".repeat(Hook.HEADERS_MAX_BYTES)).build())
                .isInstanceOfSatisfying(InvalidHookException.class, e -> assertThat(e.reason()).isEqualTo(Reason.HEADERS_TOO_LARGE));
        int[] most = IntStream.range(1, 0x10000).toArray();
        assertThat(Hook.builder().id("i").sourceId("s").sinks(most).build().sinks()).hasSize(Hook.SINKS_MAX);
        assertThatThrownBy(() -> Hook.builder().id("i").sourceId("s").sinks(most).addSink(0).build())
                .isInstanceOfSatisfying(InvalidHookException.class, e -> assertThat(e.reason()).isEqualTo(Reason.TOO_MANY_SINKS));
        assertThat(valid().tenantId("t".repeat(255)).idempotencyKey("k".repeat(246)).build().idempotencyKey()).isPresent();
    }

    @Test
    void sinksReplacesTheSinksSetBeforeAndAddSinkAddsOne() {
        assertThat(valid().sinks(1, 2).sinks(3).build().sinks()).containsExactly(3);
        assertThat(valid().sinks(1, 2).sinks(List.of(4, 5)).build().sinks()).containsExactly(4, 5);
        assertThat(valid().sinks(1).addSink(2).addSink(0).build().sinks()).containsExactly(1, 2, 0);
    }

    @Test
    void aSinkNamedTwiceIsRefusedAmongFewOrManyAndDistinctSinksAndIdsPass() {
        for (int[] sinks : new int[][] {{3, 3}, {0, 1, 2, 1}, IntStream.concat(IntStream.range(0, 20), IntStream.of(19)).toArray()}) {
            assertThatThrownBy(() -> Hook.builder().id("i").sourceId("s").sinks(sinks).build()).as("%d sinks", sinks.length)
                    .isInstanceOfSatisfying(InvalidHookException.class, e -> assertThat(e.reason()).isEqualTo(Reason.DUPLICATE_SINK));
        }
        assertThat(Hook.builder().id("i").sourceId("s").sinks(IntStream.range(0, 20).toArray()).build().sinks()).hasSize(20);
        assertThat(Hook.builder().id("i").sourceId("s").sinks(7, 0, 65535).build().sinks()).containsExactly(7, 0, 65535);
        for (String bad : new String[] {"a b", "a.b", "a\u007Fb", "\u00e9"}) {
            assertThatThrownBy(() -> valid().id(bad).build()).as(bad)
                    .isInstanceOfSatisfying(InvalidHookException.class, e -> assertThat(e.reason()).isEqualTo(Reason.INVALID_ID));
        }
        assertThat(valid().id("!~az-AZ_09").build().id()).isEqualTo("!~az-AZ_09");
    }

    @Test
    void anOrderingKeyIsPrintableAsciiOfOneTo255Bytes() {
        assertThat(valid().orderingKey("order_1042:paid").build().orderingKey()).contains("order_1042:paid");
        assertThat(valid().build().orderingKey()).isEmpty();
        assertThat(valid().orderingKey("k".repeat(255)).build().orderingKey()).isPresent();
        assertThatThrownBy(() -> valid().orderingKey("").build()).isInstanceOfSatisfying(InvalidHookException.class,
                e -> assertThat(e.reason()).isEqualTo(Reason.ORDERING_KEY_EMPTY));
        assertThatThrownBy(() -> valid().orderingKey("k".repeat(256)).build())
                .isInstanceOfSatisfying(InvalidHookException.class,
                        e -> assertThat(e.reason()).isEqualTo(Reason.ORDERING_KEY_TOO_LONG));
        for (String bad : List.of("with space", "tab\t", "caf\u00e9", "nl\n")) {
            assertThatThrownBy(() -> valid().orderingKey(bad).build()).as(bad)
                    .isInstanceOfSatisfying(InvalidHookException.class,
                            e -> assertThat(e.reason()).isEqualTo(Reason.ORDERING_KEY_INVALID));
        }
        assertThat(valid().orderingKey("a").build()).isNotEqualTo(valid().orderingKey("b").build())
                .isNotEqualTo(valid().build());
    }

    @Test
    void anEventTypeIsADottedNameAndAddressesAHookInsteadOfSinks() {
        Hook typed = Hook.builder().id("id").sourceId("src").eventType("invoice.paid").build();
        assertThat(typed.eventType()).contains("invoice.paid");
        assertThat(typed.sinks()).isEmpty();
        assertThat(valid().build().eventType()).isEmpty();
        assertThat(Hook.builder().id("id").sourceId("src").eventType("a".repeat(255)).build().eventType()).isPresent();
        for (String bad : List.of("", "invoice.*", "invoice..paid", ".paid", "paid.", "in voice", "caf\u00e9",
                "a".repeat(256))) {
            assertThatThrownBy(() -> Hook.builder().id("id").sourceId("src").eventType(bad).build()).as(bad)
                    .isInstanceOfSatisfying(InvalidHookException.class,
                            e -> assertThat(e.reason()).isEqualTo(Reason.EVENT_TYPE_INVALID));
        }
        assertThatThrownBy(() -> valid().eventType("invoice.paid").build())
                .isInstanceOfSatisfying(InvalidHookException.class,
                        e -> assertThat(e.reason()).isEqualTo(Reason.EVENT_TYPE_WITH_SINKS));
        assertThatThrownBy(() -> Hook.builder().id("id").sourceId("src").build())
                .isInstanceOfSatisfying(InvalidHookException.class,
                        e -> assertThat(e.reason()).isEqualTo(Reason.NO_SINKS));
        assertThat(typed).isNotEqualTo(Hook.builder().id("id").sourceId("src").eventType("invoice.sent").build())
                .isEqualTo(Hook.builder().id("id").sourceId("src").eventType("invoice.paid").build());
    }
}

package io.ankusa.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A hook id is the Standard Webhooks {@code webhook-id} and is signed as
 * {@code id.timestamp.payload}: ids the HTTP sink could not sign safely are refused when the hook
 * is built, not dead-lettered at delivery.
 */
class HookIdTest {

    private static Hook.Builder hook(String id) {
        return Hook.builder().id(id).sourceId("src").sinks(0);
    }

    @ParameterizedTest(name = "accepts \"{0}\"")
    @ValueSource(strings = {"msg_p5jXN8AQM9LWM0D4loKWxJek", "a", "0", "x-1_2:3/4+5=6~!@#$%^&*()[]{}<>?,;'\"|\\`",
            "550e8400-e29b-41d4-a716-446655440000"})
    void printableAsciiWithoutSpacesOrFullStopsIsAccepted(String id) {
        assertThat(hook(id).build().id()).isEqualTo(id);
    }

    @ParameterizedTest(name = "refuses \"{0}\"")
    @ValueSource(strings = {"x.1700000000", ".", "a b", " a", "tab\there", "line\nbreak", "caf\u00e9", "\u0000",
            "del\u007f", "\u2603"})
    void anIdThatCannotBeSignedSafelyIsRefused(String id) {
        assertThatThrownBy(() -> hook(id).build())
                .isInstanceOfSatisfying(InvalidHookException.class, e -> {
                    assertThat(e.reason()).isEqualTo(InvalidHookException.Reason.INVALID_ID);
                    assertThat(e.error()).isEqualTo("invalid_hook");
                    assertThat(e.getMessage()).startsWith("invalid_id: ");
                });
    }
}

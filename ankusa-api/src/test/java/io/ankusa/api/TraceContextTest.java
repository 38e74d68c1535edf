package io.ankusa.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class TraceContextTest {

    private static final String VALID = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

    @Test
    void aValidTraceparentReadsItsFields() {
        TraceContext tc = new TraceContext(VALID, "congo=t61rcWkgMzE");

        assertThat(tc.traceId()).isEqualTo("4bf92f3577b34da6a3ce929d0e0e4736");
        assertThat(tc.parentId()).isEqualTo("00f067aa0ba902b7");
        assertThat(tc.sampled()).isTrue();
        assertThat(TraceContext.of(VALID.substring(0, 53) + "00").sampled()).isFalse();
        assertThat(TraceContext.of(VALID).tracestate()).isEmpty();
    }

    @Test
    void aLaterVersionMayCarryMoreFields() {
        assertThat(TraceContext.of("cc" + VALID.substring(2) + "-what-the-future-holds").traceId())
                .isEqualTo("4bf92f3577b34da6a3ce929d0e0e4736");
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "",
        "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7",
        "00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01",
        "00-00000000000000000000000000000000-00f067aa0ba902b7-01",
        "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01",
        "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
        "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra",
        "00_4bf92f3577b34da6a3ce929d0e0e4736_00f067aa0ba902b7_01",
        "cc-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01x",
        "0x-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
    })
    void aMalformedTraceparentIsRefusedWithItsOwnError(String traceparent) {
        assertThatThrownBy(() -> TraceContext.of(traceparent))
                .isInstanceOfSatisfying(InvalidTraceContextException.class,
                        e -> assertThat(e.error()).isEqualTo("invalid_trace_context"))
                .hasMessageContaining("traceparent");
    }

    @Test
    void aTracestatePastItsBoundOrOutsidePrintableAsciiIsRefused() {
        assertThatThrownBy(() -> new TraceContext(VALID, "a=" + "b".repeat(TraceContext.TRACESTATE_MAX_CHARS)))
                .isInstanceOf(InvalidTraceContextException.class).hasMessageContaining("at most 512");
        assertThatThrownBy(() -> new TraceContext(VALID, "a=b\nc=d"))
                .isInstanceOf(InvalidTraceContextException.class).hasMessageContaining("printable ASCII");
        assertThat(new TraceContext(VALID, "a=" + "b".repeat(TraceContext.TRACESTATE_MAX_CHARS - 2)).tracestate())
                .hasSize(TraceContext.TRACESTATE_MAX_CHARS);
    }

    @Test
    void aHookCarriesTheTraceContextItWasBuiltWith() {
        Hook.Builder b = Hook.builder().id("h1").sourceId("s").sinks(0);
        Hook without = b.build();
        Hook with = b.traceContext(TraceContext.of(VALID)).build();

        assertThat(without.traceContext()).isEmpty();
        assertThat(with.traceContext()).contains(TraceContext.of(VALID));
        assertThat(with).isNotEqualTo(without);
    }
}

package io.ankusa.queue.deliveries;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ankusa.api.Hook;
import io.ankusa.api.TraceContext;
import io.ankusa.store.StoreCorruptionException;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class CodecTest {

    private static Hook hook(boolean tenant, boolean key) {
        Hook.Builder b = Hook.builder().id("evt_1").sourceId("src-ä").header("content-type", "application/json")
                .header("x-empty", "").payload("{\"a\":1}").sinks(3, 0, 65535);
        if (tenant) {
            b.tenantId("acme");
        }
        if (key) {
            b.idempotencyKey("idem-9");
        }
        return b.build();
    }

    @Test
    void envelopeRoundTripsWithAndWithoutOptionalFields() {
        for (boolean tenant : new boolean[] {false, true}) {
            for (boolean key : new boolean[] {false, true}) {
                HookEnvelope envelope = new HookEnvelope(hook(tenant, key), 1_700_000_000_123L);
                byte[] bytes = envelope.encode();
                assertThat(bytes[0]).isEqualTo((byte) HookEnvelope.VERSION);
                HookEnvelope back = HookEnvelope.decode(bytes);
                assertThat(back).isEqualTo(envelope);
                assertThat(back.hook().headers().keySet()).containsExactly("content-type", "x-empty");
                assertThat(back.hook().tenantId().isPresent()).isEqualTo(tenant);
            }
        }
    }

    @Test
    void anEnvelopeIsItsFieldsInOrderEncodedToItsExactSize() {
        for (boolean tenant : new boolean[] {false, true}) {
            for (boolean key : new boolean[] {false, true}) {
                Hook hook = hook(tenant, key);
                // Grown from one byte, field by field, as the layout says.
                Wire.Out out = new Wire.Out(1).u8(HookEnvelope.VERSION).u8((tenant ? 1 : 0) | (key ? 2 : 0)).u64(42)
                        .string("evt_1").string("src-ä");
                if (tenant) {
                    out.string("acme");
                }
                if (key) {
                    out.string("idem-9");
                }
                out.u32(2).string("content-type").string("application/json").string("x-empty").string("");
                out.u16(3).u16(3).u16(0).u16(65535).bytes("{\"a\":1}".getBytes(java.nio.charset.StandardCharsets.UTF_8));
                assertThat(new HookEnvelope(hook, 42).encode()).isEqualTo(out.toByteArray());
            }
        }
    }

    @Test
    void anOrderingKeyFollowsThePayloadUnderFlagBitThree() {
        Hook hook = Hook.builder().id("evt_1").sourceId("src").tenantId("acme").orderingKey("order_1042")
                .payload("{}").sinks(0).build();
        Wire.Out out = new Wire.Out(1).u8(HookEnvelope.VERSION).u8(1 | 8).u64(42).string("evt_1").string("src")
                .string("acme").u32(0).u16(1).u16(0).bytes("{}".getBytes(java.nio.charset.StandardCharsets.UTF_8))
                .string("order_1042");
        byte[] bytes = new HookEnvelope(hook, 42).encode();
        assertThat(bytes).isEqualTo(out.toByteArray());
        assertThat(HookEnvelope.decode(bytes).hook().orderingKey()).contains("order_1042");
        assertThat(HookEnvelope.decode(bytes).hook()).isEqualTo(hook);
        // Without the key, the envelope is what a release before ordering wrote, byte for byte.
        Hook plain = Hook.builder().id("evt_1").sourceId("src").tenantId("acme").payload("{}").sinks(0).build();
        byte[] before = new Wire.Out(1).u8(HookEnvelope.VERSION).u8(1).u64(42).string("evt_1").string("src")
                .string("acme").u32(0).u16(1).u16(0).bytes("{}".getBytes(java.nio.charset.StandardCharsets.UTF_8))
                .toByteArray();
        assertThat(new HookEnvelope(plain, 42).encode()).isEqualTo(before);
        assertThat(HookEnvelope.decode(before).hook().orderingKey()).isEmpty();
    }

    @Test
    void anEventTypeFollowsTheOrderingKeyUnderFlagBitFourAndWithSinksReplacesOnlyTheSinks() {
        Hook typed = Hook.builder().id("evt_1").sourceId("src").tenantId("acme").orderingKey("o")
                .eventType("invoice.paid").payload("{}").build();
        byte[] unsinked = new HookEnvelope(typed, 42).encode(TRACE);
        byte[] fanned = HookEnvelope.withSinks(unsinked, List.of(3, 0, 70_000 & 0xFFFF));
        Wire.Out out = new Wire.Out(1).u8(HookEnvelope.VERSION).u8(1 | 4 | 8 | 16).u64(42).string("evt_1")
                .string("src").string("acme").u32(0).u16(3).u16(3).u16(0).u16(70_000 & 0xFFFF)
                .bytes("{}".getBytes(java.nio.charset.StandardCharsets.UTF_8))
                .string(TRACE.traceparent()).string(TRACE.tracestate()).string("o").string("invoice.paid");
        assertThat(fanned).isEqualTo(out.toByteArray());
        Hook back = HookEnvelope.decode(fanned).hook();
        assertThat(back.eventType()).contains("invoice.paid");
        assertThat(back.sinks()).containsExactly(3, 0, 70_000 & 0xFFFF);
        assertThat(back.traceContext()).contains(TRACE);
        assertThat(HookEnvelope.decode(fanned).receivedAt()).isEqualTo(42);
        // A stored envelope needs its sinks; one without an event type is not the writer's to fan out.
        assertThatThrownBy(() -> HookEnvelope.decode(unsinked)).isInstanceOf(StoreCorruptionException.class);
        byte[] plain = new HookEnvelope(Hook.builder().id("e").sourceId("s").sinks(1).build(), 1).encode();
        assertThatThrownBy(() -> HookEnvelope.withSinks(plain, List.of(2)))
                .isInstanceOf(StoreCorruptionException.class);
    }

    private static final TraceContext TRACE =
            new TraceContext("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", "congo=t61rcWkgMzE");

    @Test
    void aTraceContextGoesAfterThePayloadUnderFlagBitTwo() {
        Hook plain = hook(true, true);
        byte[] before = new HookEnvelope(plain, 42).encode();
        // The layout without the trace context, grown field by field: what the first release wrote.
        Wire.Out old = new Wire.Out(1).u8(HookEnvelope.VERSION).u8(1 | 2).u64(42).string("evt_1").string("src-ä")
                .string("acme").string("idem-9").u32(2).string("content-type").string("application/json")
                .string("x-empty").string("").u16(3).u16(3).u16(0).u16(65535)
                .bytes("{\"a\":1}".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        assertThat(before).as("no trace context: the old bytes").isEqualTo(old.toByteArray());

        byte[] traced = new HookEnvelope(plain, 42).encode(TRACE);
        byte[] tail = new Wire.Out(1).string(TRACE.traceparent()).string(TRACE.tracestate()).toByteArray();
        byte[] layout = Arrays.copyOf(before, before.length + tail.length);
        System.arraycopy(tail, 0, layout, before.length, tail.length);
        layout[1] = (byte) (1 | 2 | 4);
        assertThat(traced).isEqualTo(layout);
    }

    @Test
    void anEnvelopeWithATraceContextRoundTripsAndAnOldOneReadsWithout() {
        Hook traced = Hook.builder().id("evt_2").sourceId("s").payload("p").sinks(0).traceContext(TRACE).build();
        HookEnvelope envelope = new HookEnvelope(traced, 7);
        HookEnvelope back = HookEnvelope.decode(envelope.encode());
        assertThat(back).isEqualTo(envelope);
        assertThat(back.hook().traceContext()).contains(TRACE);
        assertThat(HookEnvelope.decodeClaimed(envelope.encode()).hook().traceContext()).contains(TRACE);

        Hook plain = Hook.builder().id("evt_2").sourceId("s").payload("p").sinks(0).build();
        byte[] captured = new HookEnvelope(plain, 7).encode(TraceContext.of(TRACE.traceparent()));
        assertThat(HookEnvelope.decode(captured).hook().traceContext()).contains(TraceContext.of(TRACE.traceparent()));
        assertThat(HookEnvelope.decode(new HookEnvelope(plain, 7).encode()).hook().traceContext()).isEmpty();
        assertThat(HookEnvelope.decode(olderEnvelope("old", "t", "h", "v")).hook().traceContext()).isEmpty();
    }

    @Test
    void aTruncatedOrMalformedStoredTraceContextIsCorruption() {
        Hook plain = Hook.builder().id("evt_3").sourceId("s").payload("p").sinks(0).build();
        byte[] traced = new HookEnvelope(plain, 7).encode(TRACE);
        int plainLength = new HookEnvelope(plain, 7).encode().length;
        for (int cut = plainLength; cut < traced.length; cut++) {
            byte[] truncated = Arrays.copyOf(traced, cut);
            assertThatThrownBy(() -> HookEnvelope.decode(truncated)).isInstanceOf(StoreCorruptionException.class);
        }
        byte[] broken = traced.clone();
        broken[plainLength + 4] = 'x'; // the traceparent's first version digit
        assertThatThrownBy(() -> HookEnvelope.decode(broken)).isInstanceOf(StoreCorruptionException.class)
                .hasMessageContaining("trace context");
    }

    @Test
    void aTraceContextAndAnOrderingKeyFollowThePayloadInFlagBitOrder() {
        Hook hook = Hook.builder().id("evt_4").sourceId("s").tenantId("acme").orderingKey("order_7").payload("p")
                .sinks(0).traceContext(TRACE).build();
        byte[] bytes = new HookEnvelope(hook, 9).encode();
        byte[] tail = new Wire.Out(1).string(TRACE.traceparent()).string(TRACE.tracestate()).string("order_7")
                .toByteArray();
        assertThat(bytes[1]).isEqualTo((byte) (1 | 4 | 8));
        assertThat(Arrays.copyOfRange(bytes, bytes.length - tail.length, bytes.length)).isEqualTo(tail);
        HookEnvelope back = HookEnvelope.decode(bytes);
        assertThat(back.hook()).isEqualTo(hook);
        assertThat(back.hook().traceContext()).contains(TRACE);
        assertThat(back.hook().orderingKey()).contains("order_7");
    }

    /** An envelope as an older release wrote it, of a hook today's input rules refuse. */
    private static byte[] olderEnvelope(String id, String tenant, String headerName, String headerValue) {
        Wire.Out out = new Wire.Out(64).u8(1).u8(1).u64(7).string(id).string("src\nforged").string(tenant);
        out.u32(1).string(headerName).string(headerValue);
        return out.u16(1).u16(4).bytes(new byte[] {1}).toByteArray();
    }

    @Test
    void aHookStoredUnderOlderInputRulesStillDecodes() {
        String id = "i".repeat(300);
        HookEnvelope back = HookEnvelope.decode(olderEnvelope(id, "evil\u001b[2J", "bad name", "v\r\nx: 1"));

        assertThat(back.hook().id()).isEqualTo(id);
        assertThat(back.hook().sourceId()).isEqualTo("src\nforged");
        assertThat(back.hook().tenant()).isEqualTo("evil\u001b[2J");
        assertThat(back.hook().headers()).containsExactly(Map.entry("bad name", "v\r\nx: 1"));
        assertThat(HookEnvelope.decode(back.encode())).as("and encodes again").isEqualTo(back);
    }

    @Test
    void aHookWith65535SinksRoundTrips() {
        Hook most = Hook.builder().id("i").sourceId("s").sinks(IntStream.rangeClosed(1, 0xFFFF).toArray()).build();
        HookEnvelope envelope = new HookEnvelope(most, 1);
        assertThat(HookEnvelope.decode(envelope.encode()).hook().sinks()).hasSize(0xFFFF).isEqualTo(most.sinks());
    }

    @Test
    void malformedUtf8InAStoredStringIsCorruptionNotAReplacementCharacter() {
        byte[] bytes = olderEnvelope("id", "ab", "h", "v");
        int tenant = indexOf(bytes, new byte[] {'a', 'b'});
        bytes[tenant] = (byte) 0xC3; // a lead byte followed by ASCII
        assertThatThrownBy(() -> HookEnvelope.decode(bytes)).isInstanceOf(StoreCorruptionException.class)
                .hasMessageContaining("malformed UTF-8");
    }

    @Test
    void stringsAreEncodedStrictlyAndALastErrorsLoneSurrogatesBecomeReplacementChars() {
        assertThatThrownBy(() -> new Wire.Out(8).string("x\uD800")).isInstanceOf(IllegalArgumentException.class);
        assertThat(new DeliveryRow(1, 1, 1, "a\uD800b\uDC00\uD83D\uDE00").lastError()).isEqualTo("a\uFFFDb\uFFFD\uD83D\uDE00");
    }

    private static int indexOf(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        throw new AssertionError("not found");
    }

    @Test
    void deliveryRowRoundTrips() {
        DeliveryRow row = new DeliveryRow(0xFFFF_FFFFL, 7, 123_456_789L, "HTTP 503 ✗");
        assertThat(DeliveryRow.decode(row.encode())).isEqualTo(row);
        assertThat(DeliveryRow.decode(DeliveryRow.fresh(10).encode())).isEqualTo(new DeliveryRow(10, 0, 0, ""));
        assertThat(row.revived().attempts()).isZero();
        assertThat(row.revived().lastError()).isEqualTo("HTTP 503 ✗");
    }

    @Test
    void unknownVersionsTruncationAndTrailingBytesAreCorruption() {
        byte[] envelope = new HookEnvelope(hook(true, true), 5).encode();
        byte[] wrongVersion = envelope.clone();
        wrongVersion[0] = 2;
        assertThatThrownBy(() -> HookEnvelope.decode(wrongVersion)).isInstanceOf(StoreCorruptionException.class)
                .hasMessageContaining("unknown version 2");
        byte[] badFlags = envelope.clone();
        badFlags[1] = (byte) 0x80;
        assertThatThrownBy(() -> HookEnvelope.decode(badFlags)).hasMessageContaining("unknown flags");
        for (int cut = 0; cut < envelope.length; cut++) {
            byte[] truncated = Arrays.copyOf(envelope, cut);
            assertThatThrownBy(() -> HookEnvelope.decode(truncated)).isInstanceOf(StoreCorruptionException.class);
        }
        byte[] trailing = Arrays.copyOf(envelope, envelope.length + 1);
        assertThatThrownBy(() -> HookEnvelope.decode(trailing)).hasMessageContaining("trailing");

        byte[] row = new DeliveryRow(1, 1, 1, "x").encode();
        for (int cut = 0; cut < row.length; cut++) {
            byte[] truncated = Arrays.copyOf(row, cut);
            assertThatThrownBy(() -> DeliveryRow.decode(truncated)).isInstanceOf(StoreCorruptionException.class);
        }
        byte[] rowVersion = row.clone();
        rowVersion[0] = 9;
        assertThatThrownBy(() -> DeliveryRow.decode(rowVersion)).hasMessageContaining("delivery row: unknown version 9");
    }

    @Test
    void randomGarbageIsRefusedAsCorruptionNeverAnotherError() {
        Random random = new Random(11);
        byte[] valid = new HookEnvelope(hook(true, false), 5).encode();
        for (int i = 0; i < 5_000; i++) {
            byte[] junk;
            if (i % 2 == 0) {
                junk = new byte[random.nextInt(64)];
                random.nextBytes(junk);
            } else {
                junk = valid.clone();
                junk[random.nextInt(junk.length)] ^= (byte) (1 + random.nextInt(255));
            }
            byte[] input = junk;
            try {
                HookEnvelope.decode(input);
            } catch (StoreCorruptionException expected) {
                // refused as it should be
            }
            try {
                DeliveryRow.decode(input);
            } catch (StoreCorruptionException expected) {
                // refused as it should be
            }
        }
    }

    @Test
    void anEnvelopeThatDecodesToAnInvalidHookIsCorruption() {
        byte[] envelope = new HookEnvelope(Hook.builder().id("i").sourceId("s").sinks(1).build(), 0).encode();
        // sink count at a known offset: version, flags, received_at, id (4+1), source (4+1), headers (4)
        int sinkCountAt = 1 + 1 + 8 + 5 + 5 + 4;
        envelope[sinkCountAt + 1] = 0;
        byte[] noSinks = Arrays.copyOf(envelope, envelope.length);
        assertThatThrownBy(() -> HookEnvelope.decode(noSinks)).isInstanceOf(StoreCorruptionException.class);
    }
}

package io.ankusa.queue.deliveries;

import io.ankusa.api.Hook;
import io.ankusa.api.TraceContext;
import io.ankusa.api.stored.StoredHooks;
import io.ankusa.keys.StrictUtf8;
import io.ankusa.store.StoreCorruptionException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A hook as stored in the {@code hooks} family, with the time it was received.
 *
 * <p>Binary layout, version 1 (integers big-endian; {@code str} = {@code u32 length, UTF-8 bytes}):
 * <pre>
 * | version u8 = 1 | flags u8 | received_at u64 (epoch ms) |
 * | id str | source_id str | tenant_id str, if flags bit 0 | idempotency_key str, if flags bit 1 |
 * | header count u32 | (name str, value str) * count |
 * | sink count u16 | sink u16 * count |
 * | payload length u32 | payload bytes |
 * | traceparent str, tracestate str, if flags bit 2 |
 * | ordering_key str, if flags bit 3 |
 * | event_type str, if flags bit 4 |
 * flags: bit 0 tenant id present, bit 1 idempotency key present, bit 2 trace context present,
 *        bit 3 ordering key present, bit 4 event type present; other bits must be 0
 * </pre>
 * Optional fields that came after the first release go after the payload, in the order of their
 * flag bits, so an envelope without them is byte for byte what that release wrote. The trace
 * context is the hook's own or, when it carried none, the one the queue captured at ingest
 * ({@link #encode(TraceContext)}); a decoded hook carries it as {@link Hook#traceContext()}.
 * A decoder refuses an unknown version, unknown flags, an overrun, trailing bytes, a string that
 * is not well-formed UTF-8 and a hook that breaks the storage rules with
 * {@link StoreCorruptionException}. The encoder writes strings strictly (a string that is not
 * valid UTF-16 is refused, never replaced by {@code '?'}); the sink count is a u16, so a hook has
 * at most 65 535 sinks ({@code Hook.SINKS_MAX}, enforced when the hook is built).
 *
 * @param hook       the hook
 * @param receivedAt when the queue accepted it, epoch milliseconds
 */
public record HookEnvelope(Hook hook, long receivedAt) {

    /** The version this code writes. */
    public static final int VERSION = 1;

    private static final int TENANT = 1;
    private static final int IDEMPOTENCY = 2;
    private static final int TRACE = 4;
    private static final int ORDERING = 8;
    private static final int EVENT_TYPE = 16;
    private static final int KNOWN_FLAGS = TENANT | IDEMPOTENCY | TRACE | ORDERING | EVENT_TYPE;

    /** Checks the fields. */
    public HookEnvelope {
        Objects.requireNonNull(hook, "hook");
    }

    /** Encodes, with the hook's own trace context if it has one. */
    public byte[] encode() {
        return encode(hook.traceContext().orElse(null));
    }

    /**
     * Encodes with {@code trace} as the stored trace context.
     *
     * @param trace the hook's trace context, or null for none
     * @return the envelope's bytes
     */
    public byte[] encode(TraceContext trace) {
        Optional<String> tenant = hook.tenantId();
        Optional<String> key = hook.idempotencyKey();
        // The strings first, so the envelope's exact size is known and its array is never copied.
        byte[] id = utf8(hook.id());
        byte[] source = utf8(hook.sourceId());
        byte[] tenantBytes = tenant.map(HookEnvelope::utf8).orElse(null);
        byte[] keyBytes = key.map(HookEnvelope::utf8).orElse(null);
        byte[] orderingBytes = hook.orderingKey().map(HookEnvelope::utf8).orElse(null);
        byte[] typeBytes = hook.eventType().map(HookEnvelope::utf8).orElse(null);
        List<byte[]> headers = new ArrayList<>(hook.headers().size() * 2);
        hook.headers().forEach((name, value) -> {
            headers.add(utf8(name));
            headers.add(utf8(value));
        });
        byte[] payload = hook.payload();
        byte[] traceparent = trace == null ? null : utf8(trace.traceparent());
        byte[] tracestate = trace == null ? null : utf8(trace.tracestate());
        int size = 1 + 1 + 8 + 4 + id.length + 4 + source.length
                + (tenantBytes == null ? 0 : 4 + tenantBytes.length) + (keyBytes == null ? 0 : 4 + keyBytes.length)
                + 4 + headers.stream().mapToInt(b -> 4 + b.length).sum()
                + 2 + 2 * hook.sinks().size() + 4 + payload.length
                + (trace == null ? 0 : 4 + traceparent.length + 4 + tracestate.length)
                + (orderingBytes == null ? 0 : 4 + orderingBytes.length)
                + (typeBytes == null ? 0 : 4 + typeBytes.length);
        Wire.Out out = new Wire.Out(size)
                .u8(VERSION)
                .u8((tenant.isPresent() ? TENANT : 0) | (key.isPresent() ? IDEMPOTENCY : 0)
                        | (trace == null ? 0 : TRACE) | (orderingBytes != null ? ORDERING : 0)
                        | (typeBytes != null ? EVENT_TYPE : 0))
                .u64(receivedAt)
                .bytes(id)
                .bytes(source);
        if (tenantBytes != null) {
            out.bytes(tenantBytes);
        }
        if (keyBytes != null) {
            out.bytes(keyBytes);
        }
        out.u32(hook.headers().size());
        headers.forEach(out::bytes);
        out.u16(hook.sinks().size());
        hook.sinks().forEach(out::u16);
        out.bytes(payload);
        if (trace != null) {
            out.bytes(traceparent);
            out.bytes(tracestate);
        }
        if (orderingBytes != null) {
            out.bytes(orderingBytes);
        }
        if (typeBytes != null) {
            out.bytes(typeBytes);
        }
        return out.toByteArray();
    }

    /**
     * {@code envelope} with its sink list replaced by {@code sinks} and every other byte kept: the
     * ingest writer's fan-out of a hook with an event type, whose envelope was encoded without
     * sinks. The envelope is checked as {@link #decode} checks it.
     *
     * @param envelope an encoded envelope
     * @param sinks    the sinks to store, each 0..65535
     * @return the new envelope's bytes
     */
    public static byte[] withSinks(byte[] envelope, List<Integer> sinks) {
        Parsed parsed = parse(envelope, false);
        int from = parsed.sinksFrom();
        int to = parsed.sinksTo();
        byte[] out = new byte[envelope.length - (to - from) + 2 + 2 * sinks.size()];
        System.arraycopy(envelope, 0, out, 0, from);
        int at = from;
        out[at++] = (byte) (sinks.size() >>> 8);
        out[at++] = (byte) sinks.size();
        for (int sink : sinks) {
            out[at++] = (byte) (sink >>> 8);
            out[at++] = (byte) sink;
        }
        System.arraycopy(envelope, to, out, at, envelope.length - to);
        return out;
    }

    private static byte[] utf8(String s) {
        return StrictUtf8.encode("a string of the envelope", s);
    }

    /** Decodes; refuses anything that is not a version-1 envelope of a valid hook. */
    public static HookEnvelope decode(byte[] bytes) {
        Parsed parsed = parse(bytes, true);
        parsed.builder().payload(parsed.payload(bytes));
        return new HookEnvelope(restore(parsed.builder()), parsed.receivedAt());
    }

    /**
     * Decodes what a claim hands to a sink, checked as {@link #decode} checks it (the same bytes
     * are refused), with the payload copied once out of {@code bytes} rather than through the
     * hook's builder and constructor: the hook returned has an empty payload, the payload is
     * {@link ClaimedHook#payload()}.
     */
    static ClaimedHook decodeClaimed(byte[] bytes) {
        Parsed parsed = parse(bytes, true);
        // No storage rule reads the payload, so the hook is checked without it.
        return new ClaimedHook(restore(parsed.builder()), parsed.payload(bytes), parsed.receivedAt());
    }

    /**
     * A stored hook as a claim reads it: the hook without its payload, the payload (an array of its
     * own, shared with nobody) and when the queue accepted it.
     *
     * @param hook       the hook, its payload left empty
     * @param payload    the payload
     * @param receivedAt when the queue accepted it, epoch milliseconds
     */
    record ClaimedHook(Hook hook, byte[] payload, long receivedAt) {
    }

    /** An envelope read up to its end, the payload located but not copied. */
    private record Parsed(Hook.Builder builder, long receivedAt, int sinksFrom, int sinksTo, int payloadFrom,
            int payloadTo) {

        byte[] payload(byte[] bytes) {
            return Arrays.copyOfRange(bytes, payloadFrom, payloadTo);
        }
    }

    /** Reads {@code bytes} to their end; {@code stored}: a stored envelope (an unstored one may have no sinks yet). */
    private static Parsed parse(byte[] bytes, boolean stored) {
        Wire.In in = new Wire.In("hook envelope", bytes);
        int version = in.u8();
        if (version != VERSION) {
            throw in.corrupt("unknown version " + version);
        }
        int flags = in.u8();
        if ((flags & ~KNOWN_FLAGS) != 0) {
            throw in.corrupt("unknown flags " + flags);
        }
        long receivedAt = in.u64();
        Hook.Builder b = Hook.builder().id(in.string()).sourceId(in.string());
        if ((flags & TENANT) != 0) {
            b.tenantId(in.string());
        }
        if ((flags & IDEMPOTENCY) != 0) {
            b.idempotencyKey(in.string());
        }
        long headerCount = in.u32();
        if (headerCount > bytes.length / 8) {
            throw in.corrupt("header count " + headerCount + " cannot fit");
        }
        for (long i = 0; i < headerCount; i++) {
            b.header(in.string(), in.string());
        }
        int sinksFrom = in.position();
        int sinkCount = in.u16();
        List<Integer> sinks = new ArrayList<>(sinkCount);
        for (int i = 0; i < sinkCount; i++) {
            sinks.add(in.u16());
        }
        b.sinks(sinks);
        int sinksTo = in.position();
        int payloadFrom = in.skipBytes();
        int payloadTo = in.position();
        if ((flags & TRACE) != 0) {
            String traceparent = in.string();
            String tracestate = in.string();
            try {
                b.traceContext(new TraceContext(traceparent, tracestate));
            } catch (RuntimeException e) {
                throw in.corrupt("trace context: " + e.getMessage());
            }
        }
        if ((flags & ORDERING) != 0) {
            b.orderingKey(in.string());
        }
        if ((flags & EVENT_TYPE) != 0) {
            b.eventType(in.string());
        } else if (!stored) {
            throw in.corrupt("an envelope to fan out without an event type");
        }
        in.end();
        return new Parsed(b, receivedAt, sinksFrom, sinksTo, payloadFrom, payloadTo);
    }

    private static Hook restore(Hook.Builder builder) {
        try {
            // The storage rules only: a hook acknowledged under older input rules still reads.
            return StoredHooks.restore(builder);
        } catch (RuntimeException e) {
            throw new StoreCorruptionException("hook envelope: decodes to an invalid hook: " + e.getMessage(), e);
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof HookEnvelope e && hook.equals(e.hook) && receivedAt == e.receivedAt;
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(new Object[] {hook, receivedAt});
    }
}

package io.ankusa.kafka;

import io.ankusa.api.Hook;
import io.ankusa.api.InvalidTraceContextException;
import io.ankusa.api.TraceContext;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

/**
 * The value of an intake record: a {@link Hook}, encoded as below (Java's {@code DataOutput};
 * strings as modified UTF-8 with a u16 length). The key of the record is the hook's tenant.
 *
 * <pre>
 * version u8 (1 or 2) | id | sourceId | hasTenant u8 | tenantId? | hasKey u8 | idempotencyKey?
 * | (version 2: orderingKey) | headers u16 | (name | value)* | sinks u16 | sink u16 *
 * | payload length u32 | payload
 * </pre>
 *
 * <p>Version 2 is written only for a hook with an {@linkplain Hook#orderingKey() ordering key}, so
 * a node that takes a partition over re-ingests the hook into its key's order (records are
 * re-ingested in offset order, and one tenant is one partition); a hook without one is written as
 * version 1, which every release reads.
 *
 * <p>The hook's {@link TraceContext} travels beside the value, in the record headers
 * {@value #TRACEPARENT_HEADER} and {@value #TRACESTATE_HEADER} (UTF-8; the tracestate header only
 * when it is not empty), so a consumer that reads the headers alone (a tracing agent, a bridge)
 * sees it without decoding the hook. A record whose trace headers are malformed, or that has a
 * tracestate without a traceparent, is refused with {@link InvalidTraceContextException}.
 */
final class HookRecord {

    /** The record header holding the hook's W3C {@code traceparent}. */
    static final String TRACEPARENT_HEADER = "ankusa-traceparent";

    /** The record header holding the hook's W3C {@code tracestate}, when it has one. */
    static final String TRACESTATE_HEADER = "ankusa-tracestate";

    private static final int VERSION = 1;
    private static final int VERSION_ORDERED = 2;

    private HookRecord() {
    }

    static byte[] encode(Hook hook) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(64 + hook.payloadLength());
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            String orderingKey = hook.orderingKey().orElse(null);
            out.writeByte(orderingKey == null ? VERSION : VERSION_ORDERED);
            out.writeUTF(hook.id());
            out.writeUTF(hook.sourceId());
            optional(out, hook.tenantId().orElse(null));
            optional(out, hook.idempotencyKey().orElse(null));
            if (orderingKey != null) {
                out.writeUTF(orderingKey);
            }
            out.writeShort(hook.headers().size());
            for (Map.Entry<String, String> header : hook.headers().entrySet()) {
                out.writeUTF(header.getKey());
                out.writeUTF(header.getValue());
            }
            out.writeShort(hook.sinks().size());
            for (int sink : hook.sinks()) {
                out.writeShort(sink);
            }
            byte[] payload = hook.payload();
            out.writeInt(payload.length);
            out.write(payload);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    /** Writes {@code trace} into a record's headers. */
    static void writeTrace(TraceContext trace, Headers headers) {
        headers.add(TRACEPARENT_HEADER, trace.traceparent().getBytes(StandardCharsets.UTF_8));
        if (!trace.tracestate().isEmpty()) {
            headers.add(TRACESTATE_HEADER, trace.tracestate().getBytes(StandardCharsets.UTF_8));
        }
    }

    /**
     * Decodes a record: its value, and the trace context in its headers.
     *
     * @throws IllegalArgumentException as {@link #decode(byte[], TraceContext)}
     * @throws InvalidTraceContextException when the trace headers are malformed
     */
    static Hook decode(byte[] value, Headers headers) {
        return decode(value, readTrace(headers));
    }

    /** The trace context in a record's headers, or null when it carries none. */
    static TraceContext readTrace(Headers headers) {
        String traceparent = lastHeader(headers, TRACEPARENT_HEADER);
        String tracestate = lastHeader(headers, TRACESTATE_HEADER);
        if (traceparent == null) {
            if (tracestate != null) {
                throw new InvalidTraceContextException("record has " + TRACESTATE_HEADER + " without "
                        + TRACEPARENT_HEADER);
            }
            return null;
        }
        return new TraceContext(traceparent, tracestate == null ? "" : tracestate);
    }

    private static String lastHeader(Headers headers, String name) {
        Header header = headers.lastHeader(name);
        return header == null || header.value() == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }

    /**
     * Decodes a record's value, with {@code trace} (or none, when null) as the hook's trace context.
     *
     * @throws IllegalArgumentException when it is not a hook record this version writes, or the
     *         hook it holds breaks the input rules ({@link io.ankusa.api.InvalidHookException})
     */
    static Hook decode(byte[] value, TraceContext trace) {
        if (value == null) {
            throw new IllegalArgumentException("intake record without a value");
        }
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(value))) {
            int version = in.readUnsignedByte();
            if (version != VERSION && version != VERSION_ORDERED) {
                throw new IllegalArgumentException("unknown intake record version " + version);
            }
            Hook.Builder hook = Hook.builder().id(in.readUTF()).sourceId(in.readUTF());
            String tenant = optional(in);
            if (tenant != null) {
                hook.tenantId(tenant);
            }
            String key = optional(in);
            if (key != null) {
                hook.idempotencyKey(key);
            }
            if (version == VERSION_ORDERED) {
                hook.orderingKey(in.readUTF());
            }
            int headers = in.readUnsignedShort();
            Map<String, String> map = new LinkedHashMap<>();
            for (int i = 0; i < headers; i++) {
                map.put(in.readUTF(), in.readUTF());
            }
            hook.headers(map);
            int sinks = in.readUnsignedShort();
            List<Integer> list = new ArrayList<>(sinks);
            for (int i = 0; i < sinks; i++) {
                list.add(in.readUnsignedShort());
            }
            hook.sinks(list);
            int length = in.readInt();
            if (length < 0 || length != in.available()) {
                throw new IllegalArgumentException("intake record payload length " + length
                        + " does not match the record");
            }
            hook.payload(in.readNBytes(length));
            if (trace != null) {
                hook.traceContext(trace);
            }
            return hook.build();
        } catch (IOException e) {
            throw new IllegalArgumentException("intake record does not decode: " + e, e);
        }
    }

    private static void optional(DataOutputStream out, String value) throws IOException {
        out.writeBoolean(value != null);
        if (value != null) {
            out.writeUTF(value);
        }
    }

    private static String optional(DataInputStream in) throws IOException {
        return in.readBoolean() ? in.readUTF() : null;
    }
}

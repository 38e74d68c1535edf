package io.ankusa.kafka;

import io.ankusa.api.Hook;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The value of an intake record: a {@link Hook}, encoded as below (Java's {@code DataOutput};
 * strings as modified UTF-8 with a u16 length). The key of the record is the hook's tenant.
 *
 * <pre>
 * version u8 (1) | id | sourceId | hasTenant u8 | tenantId? | hasKey u8 | idempotencyKey?
 * | headers u16 | (name | value)* | sinks u16 | sink u16 * | payload length u32 | payload
 * </pre>
 */
final class HookRecord {

    private static final int VERSION = 1;

    private HookRecord() {
    }

    static byte[] encode(Hook hook) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(64 + hook.payloadLength());
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(VERSION);
            out.writeUTF(hook.id());
            out.writeUTF(hook.sourceId());
            optional(out, hook.tenantId().orElse(null));
            optional(out, hook.idempotencyKey().orElse(null));
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

    /**
     * Decodes a record's value.
     *
     * @throws IllegalArgumentException when it is not a hook record this version writes, or the
     *         hook it holds breaks the input rules ({@link io.ankusa.api.InvalidHookException})
     */
    static Hook decode(byte[] value) {
        if (value == null) {
            throw new IllegalArgumentException("intake record without a value");
        }
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(value))) {
            int version = in.readUnsignedByte();
            if (version != VERSION) {
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

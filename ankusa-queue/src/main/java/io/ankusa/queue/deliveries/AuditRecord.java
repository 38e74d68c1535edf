package io.ankusa.queue.deliveries;

import io.ankusa.api.AuditAction;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The value of an audit entry in the {@code audit} family (the key holds its seq and time).
 *
 * <p>Binary layout, version 1 (integers big-endian; {@code str} = {@code u32 length, UTF-8 bytes}):
 * <pre>
 * | version u8 = 1 | action str | tenant_id str | count u16 | (name str, value i64) * count |
 * </pre>
 * A decoder refuses an unknown version, an unknown action, an overrun and trailing bytes with
 * {@link io.ankusa.store.StoreCorruptionException}.
 *
 * @param action   what was done
 * @param tenantId the tenant acted on
 * @param counts   what changed, by name, in order
 */
public record AuditRecord(AuditAction action, String tenantId, Map<String, Long> counts) {

    /** The version this code writes. */
    public static final int VERSION = 1;

    /** Checks and copies. */
    public AuditRecord {
        Objects.requireNonNull(action, "action");
        Objects.requireNonNull(tenantId, "tenantId");
        counts = Collections.unmodifiableMap(new LinkedHashMap<>(counts));
        if (counts.size() > 0xFFFF) {
            throw new IllegalArgumentException("too many counts: " + counts.size());
        }
    }

    /** Encodes. */
    public byte[] encode() {
        Wire.Out out = new Wire.Out(64).u8(VERSION).string(action.code()).string(tenantId).u16(counts.size());
        counts.forEach((name, value) -> out.string(name).u64(value));
        return out.toByteArray();
    }

    /** Decodes. */
    public static AuditRecord decode(byte[] bytes) {
        Wire.In in = new Wire.In("audit record", bytes);
        int version = in.u8();
        if (version != VERSION) {
            throw in.corrupt("unknown version " + version);
        }
        String code = in.string();
        AuditAction action;
        try {
            action = AuditAction.ofCode(code);
        } catch (IllegalArgumentException e) {
            throw in.corrupt("unknown action '" + code + "'");
        }
        String tenant = in.string();
        int n = in.u16();
        Map<String, Long> counts = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            counts.put(in.string(), in.u64());
        }
        in.end();
        return new AuditRecord(action, tenant, counts);
    }
}

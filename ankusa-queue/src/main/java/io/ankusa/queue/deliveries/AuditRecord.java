package io.ankusa.queue.deliveries;

import io.ankusa.api.AuditAction;
import io.ankusa.api.AuditEntry;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The value of an audit entry in the {@code audit} family (the key holds its seq and time).
 *
 * <p>Binary layout (integers big-endian; {@code str} = {@code u32 length, UTF-8 bytes}):
 * <pre>
 * version 1: | version u8 = 1 | action str | tenant_id str | count u16 | (name str, value i64) * count |
 * version 2: | version u8 = 2 | action str | tenant_id str | count u16 | (name str, value i64) * count | actor str |
 * </pre>
 * A record with an actor is written as version 2, one without as version 1 (byte for byte what was
 * written before actors were kept), so every entry written before reads, with no actor. A decoder
 * refuses an unknown version, an unknown action, a version 2 with an invalid actor, an overrun and
 * trailing bytes with {@link io.ankusa.store.StoreCorruptionException}.
 *
 * @param action   what was done
 * @param tenantId the tenant acted on
 * @param counts   what changed, by name, in order
 * @param actor    the principal that made the change, when the caller named one
 */
public record AuditRecord(AuditAction action, String tenantId, Map<String, Long> counts, Optional<String> actor) {

    /** The version of a record without an actor. */
    public static final int VERSION = 1;

    /** The version of a record with an actor. */
    public static final int VERSION_WITH_ACTOR = 2;

    /** Checks and copies. */
    public AuditRecord {
        Objects.requireNonNull(action, "action");
        Objects.requireNonNull(tenantId, "tenantId");
        counts = Collections.unmodifiableMap(new LinkedHashMap<>(counts));
        Objects.requireNonNull(actor, "actor").ifPresent(AuditEntry::requireActor);
        if (counts.size() > 0xFFFF) {
            throw new IllegalArgumentException("too many counts: " + counts.size());
        }
    }

    /** A record without an actor. */
    public AuditRecord(AuditAction action, String tenantId, Map<String, Long> counts) {
        this(action, tenantId, counts, Optional.empty());
    }

    /** Encodes: version 1 without an actor, version 2 with one. */
    public byte[] encode() {
        Wire.Out out = new Wire.Out(64).u8(actor.isPresent() ? VERSION_WITH_ACTOR : VERSION).string(action.code())
                .string(tenantId).u16(counts.size());
        counts.forEach((name, value) -> out.string(name).u64(value));
        actor.ifPresent(out::string);
        return out.toByteArray();
    }

    /** Decodes. */
    public static AuditRecord decode(byte[] bytes) {
        Wire.In in = new Wire.In("audit record", bytes);
        int version = in.u8();
        if (version != VERSION && version != VERSION_WITH_ACTOR) {
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
        Optional<String> actor = Optional.empty();
        if (version == VERSION_WITH_ACTOR) {
            String name = in.string();
            try {
                actor = Optional.of(AuditEntry.requireActor(name));
            } catch (IllegalArgumentException e) {
                throw in.corrupt("invalid actor");
            }
        }
        in.end();
        return new AuditRecord(action, tenant, counts, actor);
    }
}

package io.ankusa.api;

import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * One entry of the audit trail: an operator action on a tenant and what it changed.
 *
 * @param seq      the entry's number: 1, 2, 3, … in the order entries were recorded, never reused
 * @param at       when it was recorded
 * @param action   what was done
 * @param tenantId the tenant acted on
 * @param counts   what changed, by name (for a purge: {@code pending}, {@code scheduled},
 *                 {@code dead}, {@code bytes}; for a replay: {@code revived}), in a stable order
 */
public record AuditEntry(long seq, Instant at, AuditAction action, String tenantId, Map<String, Long> counts) {

    /**
     * Checks the fields and copies the counts, keeping their order.
     *
     * @param seq the entry's number: 1, 2, 3, … in the order entries were recorded, never reused
     * @param at when it was recorded
     * @param action what was done
     * @param tenantId the tenant acted on
     * @param counts what changed, by name (for a purge: {@code pending}, {@code scheduled}, {@code dead},
     *     {@code bytes}; for a replay: {@code revived}), in a stable order
     */
    public AuditEntry {
        if (seq < 1) {
            throw new IllegalArgumentException("seq must be >= 1: " + seq);
        }
        Objects.requireNonNull(at, "at");
        Objects.requireNonNull(action, "action");
        Objects.requireNonNull(tenantId, "tenantId");
        Map<String, Long> copy = new LinkedHashMap<>();
        counts.forEach((k, v) -> copy.put(Objects.requireNonNull(k, "count name"), Objects.requireNonNull(v, "count")));
        counts = Collections.unmodifiableMap(copy);
    }
}

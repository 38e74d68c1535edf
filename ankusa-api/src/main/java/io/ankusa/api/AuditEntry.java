package io.ankusa.api;

import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One entry of the audit trail: an operator action on a tenant, what it changed and who asked.
 *
 * <p>The actor is the principal a caller named when it made the change (the admin API names the
 * request's principal, the CLI {@code cli:<os user>}); entries recorded without one, and every
 * entry recorded before actors were kept, have none.
 *
 * @param seq      the entry's number: 1, 2, 3, … in the order entries were recorded, never reused
 * @param at       when it was recorded
 * @param action   what was done
 * @param tenantId the tenant acted on
 * @param counts   what changed, by name (for a purge: {@code pending}, {@code scheduled},
 *                 {@code dead}, {@code bytes}; for a replay: {@code revived}), in a stable order
 * @param actor    the principal that made the change, when the caller named one
 */
public record AuditEntry(long seq, Instant at, AuditAction action, String tenantId, Map<String, Long> counts,
        Optional<String> actor) {

    /** The most characters an actor has. */
    public static final int MAX_ACTOR_LENGTH = 256;

    /**
     * Checks the fields and copies the counts, keeping their order.
     *
     * @param seq the entry's number: 1, 2, 3, … in the order entries were recorded, never reused
     * @param at when it was recorded
     * @param action what was done
     * @param tenantId the tenant acted on
     * @param counts what changed, by name (for a purge: {@code pending}, {@code scheduled}, {@code dead},
     *     {@code bytes}; for a replay: {@code revived}), in a stable order
     * @param actor the principal that made the change, when the caller named one
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
        Objects.requireNonNull(actor, "actor").ifPresent(AuditEntry::requireActor);
    }

    /**
     * An entry recorded without an actor.
     *
     * @param seq the entry's number
     * @param at when it was recorded
     * @param action what was done
     * @param tenantId the tenant acted on
     * @param counts what changed, by name, in a stable order
     */
    public AuditEntry(long seq, Instant at, AuditAction action, String tenantId, Map<String, Long> counts) {
        this(seq, at, action, tenantId, counts, Optional.empty());
    }

    /**
     * Checks that {@code actor} can name who made a change: not blank, at most
     * {@value #MAX_ACTOR_LENGTH} characters, no control characters.
     *
     * @param actor the principal's name
     * @return {@code actor}
     * @throws IllegalArgumentException when it cannot
     */
    public static String requireActor(String actor) {
        Objects.requireNonNull(actor, "actor");
        if (actor.isBlank() || actor.length() > MAX_ACTOR_LENGTH) {
            throw new IllegalArgumentException("an actor is 1.." + MAX_ACTOR_LENGTH + " characters, not blank");
        }
        if (actor.chars().anyMatch(Character::isISOControl)) {
            throw new IllegalArgumentException("an actor holds no control characters");
        }
        return actor;
    }
}

package io.ankusa.api;

import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Which dead letters to list: all of the node's, or those of some tenants; newest first, from the
 * start or {@link #after} a cursor; at most {@link #limit()} of them. Immutable: every change
 * returns a new query.
 *
 * <pre>{@code
 * DeadLetterPage page = queue.deadLetters(DeadLetterQuery.tenants("acme").limit(50));
 * while (page.next().isPresent()) {
 *     page = queue.deadLetters(DeadLetterQuery.tenants("acme").limit(50).after(page.next().get()));
 * }
 * }</pre>
 */
public final class DeadLetterQuery {

    /** The limit of a new query. */
    public static final int DEFAULT_LIMIT = 100;

    /** The largest limit. */
    public static final int MAX_LIMIT = 10_000;

    private final Set<String> tenants;
    private final DeadLetterCursor after;
    private final int limit;

    private DeadLetterQuery(Set<String> tenants, DeadLetterCursor after, int limit) {
        this.tenants = tenants;
        this.after = after;
        this.limit = limit;
    }

    /** {@return every tenant's dead letters} */
    public static DeadLetterQuery all() {
        return new DeadLetterQuery(Set.of(), null, DEFAULT_LIMIT);
    }

    /**
     * The dead letters of {@code tenants} (at least one; unknown tenants simply have none).
     *
     * @param tenants the tenant ids
     * @return a query of their dead letters, newest first, {@value #DEFAULT_LIMIT} per page
     */
    public static DeadLetterQuery tenants(Collection<String> tenants) {
        Set<String> copy = new LinkedHashSet<>();
        tenants.forEach(t -> copy.add(Objects.requireNonNull(t, "tenant")));
        if (copy.isEmpty()) {
            throw new IllegalArgumentException("name at least one tenant, or use DeadLetterQuery.all()");
        }
        return new DeadLetterQuery(Collections.unmodifiableSet(copy), null, DEFAULT_LIMIT);
    }

    /**
     * The dead letters of {@code tenants}.
     *
     * @param tenants the tenant ids (at least one)
     * @return a query of their dead letters, newest first, {@value #DEFAULT_LIMIT} per page
     */
    public static DeadLetterQuery tenants(String... tenants) {
        return tenants(List.of(tenants));
    }

    /**
     * This query, continuing after {@code cursor} (the {@link DeadLetterPage#next()} of the previous page).
     *
     * @param cursor where the previous page ended
     * @return a new query; this one is unchanged
     */
    public DeadLetterQuery after(DeadLetterCursor cursor) {
        return new DeadLetterQuery(tenants, Objects.requireNonNull(cursor, "cursor"), limit);
    }

    /**
     * This query with at most {@code limit} letters per page (1..{@value #MAX_LIMIT}).
     *
     * @param limit the page size
     * @return a new query; this one is unchanged
     */
    public DeadLetterQuery limit(int limit) {
        if (limit < 1 || limit > MAX_LIMIT) {
            throw new IllegalArgumentException("limit must be in 1.." + MAX_LIMIT + ": " + limit);
        }
        return new DeadLetterQuery(tenants, after, limit);
    }

    /** {@return the tenants to list; empty means every tenant} */
    public Set<String> tenants() {
        return tenants;
    }

    /** {@return where the listing continues, if not from the newest letter} */
    public Optional<DeadLetterCursor> cursor() {
        return Optional.ofNullable(after);
    }

    /**
     * Most letters per page.
     *
     * @return the page size
     */
    public int limit() {
        return limit;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof DeadLetterQuery q && tenants.equals(q.tenants) && Objects.equals(after, q.after)
                && limit == q.limit;
    }

    @Override
    public int hashCode() {
        return Objects.hash(tenants, after, limit);
    }

    @Override
    public String toString() {
        return "DeadLetterQuery[tenants=" + (tenants.isEmpty() ? "all" : tenants) + ", after="
                + (after == null ? "start" : after.token()) + ", limit=" + limit + "]";
    }
}

package io.ankusa.api;

import java.util.Objects;
import java.util.Optional;

/**
 * Which recorded attempts to list: a tenant's (every hook, every sink) or one hook's (every sink),
 * newest first, from the start or {@link #after} a cursor; at most {@link #limit()} of them. Each
 * is one range scan of the history. Immutable: every change returns a new query.
 *
 * <pre>{@code
 * AttemptPage page = queue.attempts(AttemptQuery.hook("acme", "msg_42").limit(20));
 * }</pre>
 */
public final class AttemptQuery {

    /** The limit of a new query. */
    public static final int DEFAULT_LIMIT = 100;

    /** The largest limit. */
    public static final int MAX_LIMIT = 10_000;

    private final String tenant;
    private final String hookId;
    private final AttemptCursor after;
    private final int limit;

    private AttemptQuery(String tenant, String hookId, AttemptCursor after, int limit) {
        this.tenant = tenant;
        this.hookId = hookId;
        this.after = after;
        this.limit = limit;
    }

    /**
     * The attempts of {@code tenant}'s deliveries (an unknown tenant simply has none).
     *
     * @param tenant the tenant id
     * @return a query, newest first, {@value #DEFAULT_LIMIT} per page
     */
    public static AttemptQuery tenant(String tenant) {
        return new AttemptQuery(Objects.requireNonNull(tenant, "tenant"), null, null, DEFAULT_LIMIT);
    }

    /**
     * The attempts of the deliveries of {@code tenant}'s hooks with id {@code hookId}, every sink.
     *
     * @param tenant the tenant id
     * @param hookId the hook's id
     * @return a query, newest first, {@value #DEFAULT_LIMIT} per page
     */
    public static AttemptQuery hook(String tenant, String hookId) {
        return new AttemptQuery(Objects.requireNonNull(tenant, "tenant"), Objects.requireNonNull(hookId, "hookId"),
                null, DEFAULT_LIMIT);
    }

    /**
     * This query, continuing after {@code cursor} (the {@link AttemptPage#next()} of the previous page).
     *
     * @param cursor where the previous page ended
     * @return a new query; this one is unchanged
     */
    public AttemptQuery after(AttemptCursor cursor) {
        return new AttemptQuery(tenant, hookId, Objects.requireNonNull(cursor, "cursor"), limit);
    }

    /**
     * This query with at most {@code limit} attempts per page (1..{@value #MAX_LIMIT}).
     *
     * @param limit the page size
     * @return a new query; this one is unchanged
     */
    public AttemptQuery limit(int limit) {
        if (limit < 1 || limit > MAX_LIMIT) {
            throw new IllegalArgumentException("limit must be in 1.." + MAX_LIMIT + ": " + limit);
        }
        return new AttemptQuery(tenant, hookId, after, limit);
    }

    /** {@return the tenant} */
    public String tenant() {
        return tenant;
    }

    /** {@return the hook id, when the query is one hook's} */
    public Optional<String> hookId() {
        return Optional.ofNullable(hookId);
    }

    /** {@return where the listing continues, if not from the newest attempt} */
    public Optional<AttemptCursor> cursor() {
        return Optional.ofNullable(after);
    }

    /** {@return most attempts per page} */
    public int limit() {
        return limit;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof AttemptQuery q && tenant.equals(q.tenant) && Objects.equals(hookId, q.hookId)
                && Objects.equals(after, q.after) && limit == q.limit;
    }

    @Override
    public int hashCode() {
        return Objects.hash(tenant, hookId, after, limit);
    }

    @Override
    public String toString() {
        return "AttemptQuery[tenant=" + tenant + (hookId == null ? "" : ", hook=" + hookId) + ", after="
                + (after == null ? "start" : after.token()) + ", limit=" + limit + "]";
    }
}

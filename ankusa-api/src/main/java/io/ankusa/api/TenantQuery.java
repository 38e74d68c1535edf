package io.ankusa.api;

import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.Optional;

/**
 * Which tenants to list: every tenant the queue holds, or those whose id starts with a
 * {@link #prefix(String) prefix}; in tenant-id order, from the start or {@link #after} a cursor; at most
 * {@link #limit()} of them. Immutable: every change returns a new query.
 *
 * <pre>{@code
 * TenantPage page = queue.tenants(TenantQuery.all().prefix("acme-").limit(50));
 * while (page.next().isPresent()) {
 *     page = queue.tenants(TenantQuery.all().prefix("acme-").limit(50).after(page.next().get()));
 * }
 * }</pre>
 */
public final class TenantQuery {

    /** The limit of a new query. */
    public static final int DEFAULT_LIMIT = 100;

    /** The largest limit. */
    public static final int MAX_LIMIT = 1_000;

    private final String prefix;
    private final TenantCursor after;
    private final int limit;

    private TenantQuery(String prefix, TenantCursor after, int limit) {
        this.prefix = prefix;
        this.after = after;
        this.limit = limit;
    }

    /** {@return every tenant, {@value #DEFAULT_LIMIT} per page} */
    public static TenantQuery all() {
        return new TenantQuery("", null, DEFAULT_LIMIT);
    }

    /**
     * This query, for the tenants whose id starts with {@code prefix} (the empty prefix: every tenant).
     *
     * @param prefix the start of the ids to list: at most {@value Hook#TENANT_MAX_BYTES} UTF-8 bytes, no
     *               NUL, valid UTF-16
     * @return a new query; this one is unchanged
     * @throws IllegalArgumentException when no tenant id could start with {@code prefix}
     */
    public TenantQuery prefix(String prefix) {
        checkIdText("tenant id prefix", prefix, 0);
        return new TenantQuery(prefix, after, limit);
    }

    /**
     * This query, continuing after {@code cursor} (the {@link TenantPage#next()} of the previous page).
     *
     * @param cursor where the previous page ended
     * @return a new query; this one is unchanged
     */
    public TenantQuery after(TenantCursor cursor) {
        return new TenantQuery(prefix, Objects.requireNonNull(cursor, "cursor"), limit);
    }

    /**
     * This query with at most {@code limit} tenants per page (1..{@value #MAX_LIMIT}).
     *
     * @param limit the page size
     * @return a new query; this one is unchanged
     * @throws IllegalArgumentException when {@code limit} is outside 1..{@value #MAX_LIMIT}
     */
    public TenantQuery limit(int limit) {
        if (limit < 1 || limit > MAX_LIMIT) {
            throw new IllegalArgumentException("limit must be in 1.." + MAX_LIMIT + ": " + limit);
        }
        return new TenantQuery(prefix, after, limit);
    }

    /** {@return the start every listed id has; empty for every tenant} */
    public String prefix() {
        return prefix;
    }

    /** {@return where the listing continues, if not from the first tenant} */
    public Optional<TenantCursor> cursor() {
        return Optional.ofNullable(after);
    }

    /** {@return most tenants per page} */
    public int limit() {
        return limit;
    }

    /**
     * Refuses {@code text} unless it is valid UTF-16 without NUL whose UTF-8 is {@code minBytes} to
     * {@value Hook#TENANT_MAX_BYTES} bytes: what a tenant id (or the start of one) can be.
     */
    static void checkIdText(String what, String text, int minBytes) {
        Objects.requireNonNull(text, what);
        if (text.indexOf('\0') >= 0) {
            throw new IllegalArgumentException("a " + what + " contains no NUL");
        }
        int bytes;
        try {
            bytes = StandardCharsets.UTF_8.newEncoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).encode(CharBuffer.wrap(text)).remaining();
        } catch (CharacterCodingException e) {
            throw new IllegalArgumentException("a " + what + " is valid UTF-16", e);
        }
        if (bytes < minBytes || bytes > Hook.TENANT_MAX_BYTES) {
            throw new IllegalArgumentException("a " + what + " is " + minBytes + ".." + Hook.TENANT_MAX_BYTES
                    + " UTF-8 bytes: " + bytes);
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TenantQuery q && prefix.equals(q.prefix) && Objects.equals(after, q.after)
                && limit == q.limit;
    }

    @Override
    public int hashCode() {
        return Objects.hash(prefix, after, limit);
    }

    @Override
    public String toString() {
        return "TenantQuery[prefix=" + prefix + ", after=" + (after == null ? "start" : after.token()) + ", limit="
                + limit + "]";
    }
}

package io.ankusa.dispatch;

import io.ankusa.api.DeadLetter;
import io.ankusa.api.DeadLetterCursor;
import io.ankusa.api.DeadLetterPage;
import io.ankusa.api.DeadLetterQuery;
import io.ankusa.queue.Queue;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * Which dead letters to list or replay: optionally one tenant, one source id, a range of
 * dead-letter times {@code [from, to)} and a reason (a text the letter's last error contains).
 * Immutable: every change returns a new filter.
 *
 * <p><b>Cost of a page</b> ({@link #page(Queue, int)}): the listing walks the dead-letter index
 * newest first, as {@link Queue#deadLetters} reads it, and keeps the letters that match. With a
 * tenant it is one range scan of that tenant's dead index; without one, one range scan of the
 * node's dead index. A time range bounds the scan at both ends ({@code to} is where it starts,
 * {@code from} where it stops). The source and the reason are checked on each letter read, so a
 * rare match could need a long walk: a page examines at most {@value #MAX_EXAMINED} letters and
 * then returns what it found with a cursor to resume from, never scanning a whole family behind one
 * page. A page can therefore hold fewer letters than asked for (even none) and still have a next
 * cursor.
 */
public final class DeadLetterFilter {

    /** The most dead letters one page reads, matching or not. */
    public static final int MAX_EXAMINED = 10_000;

    /** Letters read per read of the dead-letter index while a page is filled. */
    static final int READ = 500;

    private static final Predicate<String> EVERY_TENANT = t -> true;

    private static final DeadLetterFilter ALL = new DeadLetterFilter(null, null, null, null, null, EVERY_TENANT);

    private final String tenant;
    private final String source;
    private final Instant from;
    private final Instant to;
    private final String reason;
    private final Predicate<String> scope;

    private DeadLetterFilter(String tenant, String source, Instant from, Instant to, String reason,
            Predicate<String> scope) {
        if (from != null && to != null && !from.isBefore(to)) {
            throw new IllegalArgumentException("from must be before to: " + from + ", " + to);
        }
        this.tenant = tenant;
        this.source = source;
        this.from = from;
        this.to = to;
        this.reason = reason;
        this.scope = scope;
    }

    /** {@return the filter every dead letter matches} */
    public static DeadLetterFilter all() {
        return ALL;
    }

    /**
     * This filter, narrowed to the letters of {@code tenant} (one range scan of its dead index).
     *
     * @param tenant the tenant id
     * @return a new filter
     */
    public DeadLetterFilter tenant(String tenant) {
        return new DeadLetterFilter(Objects.requireNonNull(tenant, "tenant"), source, from, to, reason, scope);
    }

    /**
     * This filter, narrowed to the letters of hooks from {@code source}.
     *
     * @param source the hooks' source id
     * @return a new filter
     */
    public DeadLetterFilter source(String source) {
        return new DeadLetterFilter(tenant, Objects.requireNonNull(source, "source"), from, to, reason, scope);
    }

    /**
     * This filter, narrowed to letters dead-lettered at or after {@code from}.
     *
     * @param from the earliest dead-letter time, inclusive
     * @return a new filter
     * @throws IllegalArgumentException when it is not before the filter's {@code to}
     */
    public DeadLetterFilter from(Instant from) {
        return new DeadLetterFilter(tenant, source, Objects.requireNonNull(from, "from"), to, reason, scope);
    }

    /**
     * This filter, narrowed to letters dead-lettered before {@code to}.
     *
     * @param to the dead-letter time the range ends at, exclusive
     * @return a new filter
     * @throws IllegalArgumentException when it is not after the filter's {@code from}
     */
    public DeadLetterFilter to(Instant to) {
        return new DeadLetterFilter(tenant, source, from, Objects.requireNonNull(to, "to"), reason, scope);
    }

    /**
     * This filter, narrowed to letters whose last error contains {@code reason} (case-sensitive).
     *
     * @param reason a text the last error holds, not empty
     * @return a new filter
     */
    public DeadLetterFilter reason(String reason) {
        if (reason.isEmpty()) {
            throw new IllegalArgumentException("reason must not be empty");
        }
        return new DeadLetterFilter(tenant, source, from, to, reason, scope);
    }

    /**
     * This filter, narrowed to the letters of tenants {@code scope} accepts (an access policy's
     * tenant scope, say). Checked on each letter read, like the source: it narrows what a page
     * shows, not what it reads. Filters with a scope are equal only when their scopes are the same
     * object.
     *
     * @param scope which tenant ids may match
     * @return a new filter
     */
    public DeadLetterFilter scope(Predicate<String> scope) {
        return new DeadLetterFilter(tenant, source, from, to, reason, Objects.requireNonNull(scope, "scope"));
    }

    /** {@return the tenant the letters belong to, if the filter names one} */
    public Optional<String> tenant() {
        return Optional.ofNullable(tenant);
    }

    /** {@return the source id of the letters' hooks, if the filter names one} */
    public Optional<String> source() {
        return Optional.ofNullable(source);
    }

    /** {@return the earliest dead-letter time (inclusive), if the filter names one} */
    public Optional<Instant> from() {
        return Optional.ofNullable(from);
    }

    /** {@return the dead-letter time the range ends at (exclusive), if the filter names one} */
    public Optional<Instant> to() {
        return Optional.ofNullable(to);
    }

    /** {@return the text the letters' last error contains, if the filter names one} */
    public Optional<String> reason() {
        return Optional.ofNullable(reason);
    }

    /**
     * Whether {@code letter} matches every field of this filter.
     *
     * @param letter a dead letter
     * @return true when it matches
     */
    public boolean matches(DeadLetter letter) {
        return (tenant == null || tenant.equals(letter.tenantId()))
                && (source == null || source.equals(letter.sourceId()))
                && (from == null || !letter.deadAt().isBefore(from))
                && (to == null || letter.deadAt().isBefore(to))
                && (reason == null || letter.lastError().contains(reason))
                && scope.test(letter.tenantId());
    }

    /**
     * The newest page of matching letters; see the class for its cost.
     *
     * @param queue the queue to read
     * @param limit how many letters at most, 1..{@value DeadLetterQuery#MAX_LIMIT}
     * @return the letters found, how many were examined, and where to resume
     */
    public FilteredDeadLetters page(Queue queue, int limit) {
        return read(queue, Optional.empty(), limit);
    }

    /**
     * The page of matching letters older than {@code after}; see the class for its cost.
     *
     * @param queue the queue to read
     * @param after where the page before ended ({@link FilteredDeadLetters#next()})
     * @param limit how many letters at most, 1..{@value DeadLetterQuery#MAX_LIMIT}
     * @return the letters found, how many were examined, and where to resume
     */
    public FilteredDeadLetters page(Queue queue, DeadLetterCursor after, int limit) {
        return read(queue, Optional.of(Objects.requireNonNull(after, "after")), limit);
    }

    private FilteredDeadLetters read(Queue queue, Optional<DeadLetterCursor> after, int limit) {
        Objects.requireNonNull(queue, "queue");
        if (limit < 1 || limit > DeadLetterQuery.MAX_LIMIT) {
            throw new IllegalArgumentException("limit must be in 1.." + DeadLetterQuery.MAX_LIMIT + ": " + limit);
        }
        DeadLetterQuery base = tenant == null ? DeadLetterQuery.all() : DeadLetterQuery.tenants(tenant);
        // Seqs start at 1, so every letter before `to` sorts below the position (to, 0, 0).
        Optional<DeadLetterCursor> cursor = after.isPresent() ? after
                : Optional.ofNullable(to).map(t -> new DeadLetterCursor(Math.max(0, t.toEpochMilli()), 0, 0));
        List<DeadLetter> found = new ArrayList<>();
        int examined = 0;
        while (examined < MAX_EXAMINED) {
            DeadLetterQuery query = base.limit(Math.min(READ, MAX_EXAMINED - examined));
            if (cursor.isPresent()) {
                query = query.after(cursor.get());
            }
            DeadLetterPage read = queue.deadLetters(query);
            for (DeadLetter letter : read.letters()) {
                if (from != null && letter.deadAt().isBefore(from)) {
                    return new FilteredDeadLetters(found, examined, Optional.empty());
                }
                examined++;
                cursor = Optional.of(letter.cursor());
                if (matches(letter)) {
                    found.add(letter);
                    if (found.size() == limit) {
                        return new FilteredDeadLetters(found, examined, cursor);
                    }
                }
            }
            if (!read.hasMore()) {
                return new FilteredDeadLetters(found, examined, Optional.empty());
            }
        }
        return new FilteredDeadLetters(found, examined, cursor);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof DeadLetterFilter f && Objects.equals(tenant, f.tenant) && Objects.equals(source, f.source)
                && Objects.equals(from, f.from) && Objects.equals(to, f.to) && Objects.equals(reason, f.reason)
                && scope == f.scope;
    }

    @Override
    public int hashCode() {
        return Objects.hash(tenant, source, from, to, reason);
    }

    @Override
    public String toString() {
        return "DeadLetterFilter[tenant=" + tenant + ", source=" + source + ", from=" + from + ", to=" + to
                + ", reason=" + reason + (scope == EVERY_TENANT ? "" : ", scoped") + "]";
    }
}

package io.ankusa.dispatch;

import io.ankusa.api.DeadLetterCursor;
import java.util.Objects;
import java.util.Optional;

/**
 * What replaying one page of the node's dead letters did: how many rows it revived, and the
 * cursor to replay the next (older) page with, like {@link io.ankusa.api.DeadLetterPage#next()}.
 */
public final class ReplayPage {

    private final int revived;
    private final DeadLetterCursor next;

    private ReplayPage(int revived, DeadLetterCursor next) {
        if (revived < 0) {
            throw new IllegalArgumentException("revived must not be negative: " + revived);
        }
        this.revived = revived;
        this.next = next;
    }

    /** A page that revived {@code revived} rows and is followed by older letters after {@code next}. */
    static ReplayPage followedBy(int revived, DeadLetterCursor next) {
        return new ReplayPage(revived, Objects.requireNonNull(next, "next"));
    }

    /** A page that revived {@code revived} rows and reached the oldest letter. */
    static ReplayPage last(int revived) {
        return new ReplayPage(revived, null);
    }

    /**
     * How many dead rows became due again (letters revived or purged by someone else meanwhile are not counted).
     *
     * @return the number of dead rows made due again by this page
     */
    public int revived() {
        return revived;
    }

    /**
     * The cursor to replay the next (older) page with; empty when this page reached the oldest letter.
     *
     * @return the cursor to the next page, or empty after the last
     */
    public Optional<DeadLetterCursor> next() {
        return Optional.ofNullable(next);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ReplayPage p && revived == p.revived && Objects.equals(next, p.next);
    }

    @Override
    public int hashCode() {
        return Objects.hash(revived, next);
    }

    @Override
    public String toString() {
        return "ReplayPage[revived=" + revived + ", next=" + (next == null ? "none" : next.token()) + "]";
    }
}

package io.ankusa.dispatch;

import io.ankusa.api.DeadLetterCursor;
import java.util.Objects;
import java.util.Optional;

/**
 * What replaying one page of the node's dead letters did: how many rows it revived, how many of
 * the page's letters it skipped because someone else revived or purged them first, and the cursor
 * to replay the next (older) page with, like {@link io.ankusa.api.DeadLetterPage#next()}.
 */
public final class ReplayPage {

    private final int revived;
    private final int skipped;
    private final DeadLetterCursor next;

    private ReplayPage(int revived, int skipped, DeadLetterCursor next) {
        if (revived < 0 || skipped < 0) {
            throw new IllegalArgumentException("counts must not be negative: " + revived + ", " + skipped);
        }
        this.revived = revived;
        this.skipped = skipped;
        this.next = next;
    }

    /**
     * A page that revived {@code revived} rows, skipped {@code skipped} and is followed by older letters after
     * {@code next}.
     */
    static ReplayPage followedBy(int revived, int skipped, DeadLetterCursor next) {
        return new ReplayPage(revived, skipped, Objects.requireNonNull(next, "next"));
    }

    /** A page that revived {@code revived} rows, skipped {@code skipped} and reached the oldest letter. */
    static ReplayPage last(int revived, int skipped) {
        return new ReplayPage(revived, skipped, null);
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
     * How many letters of the page were not revived because someone else revived or purged them
     * between the page's read and its commit (they are not dead any more; audited as
     * {@code skipped_gone}).
     *
     * @return letters skipped
     */
    public int skipped() {
        return skipped;
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
        return o instanceof ReplayPage p && revived == p.revived && skipped == p.skipped
                && Objects.equals(next, p.next);
    }

    @Override
    public int hashCode() {
        return Objects.hash(revived, skipped, next);
    }

    @Override
    public String toString() {
        return "ReplayPage[revived=" + revived + ", skipped=" + skipped + ", next="
                + (next == null ? "none" : next.token()) + "]";
    }
}

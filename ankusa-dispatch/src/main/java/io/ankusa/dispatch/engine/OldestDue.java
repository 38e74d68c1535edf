package io.ankusa.dispatch.engine;

import io.ankusa.queue.ledger.DeliveryLedger;
import io.ankusa.queue.ledger.DueRow;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentSkipListSet;

/**
 * A pipeline's oldest due time, kept from what its scheduler already knows instead of a seek over
 * the active index and its tombstones at every gauge measurement.
 *
 * <p>Per tenant the scheduler knows, one mark: the due time of its earliest row as its last marker
 * cleanup read it ({@link Mark#verified}: exact, since only this pipeline's claims remove due rows
 * and every claim is followed by that tenant's cleanup), or, when the feed brought a marker second
 * earlier than that since (or the tenant was never cleaned), that second's start (unverified: a
 * marker may outlive its rows). The oldest due time is the first verified mark; an unverified mark
 * before it is checked with one seek of its tenant's rows from that second
 * ({@link DeliveryLedger#firstDue(long, long)}), at most {@value #UNVERIFIED_CHECKED} per measurement.
 * So a measurement costs no store read while the earliest tenants' heads are known, and does not
 * grow with the backlog or the tenants.
 *
 * <p>Until the feed has reached the present once (after a restart the first pass reads the active
 * index a page a tick), the scheduler does not know every tenant with due work: the reader then
 * falls back to {@link DeliveryLedger#oldestDueAt()}, as it does when no tenant is marked while
 * rows are counted due (only retries due later, or markers the feed has not reached yet).
 *
 * <p>The scheduler writes marks on the tick thread; {@link #oldestDueAt} runs on the gauge thread
 * (or a caller's). A due row removed behind the scheduler's back (a purge) is seen at its tenant's
 * next visit.
 */
final class OldestDue {

    /** Unverified marks checked (one seek each) by one measurement before falling back to the store's read. */
    static final int UNVERIFIED_CHECKED = 32;

    /**
     * One tenant's earliest known due time.
     *
     * @param at       queue-clock millis: the row's due time (verified) or a marker second's start
     * @param ord      the tenant
     * @param verified whether {@code at} is the due time of the tenant's earliest row as its cleanup read it
     */
    record Mark(long at, long ord, boolean verified) implements Comparable<Mark> {

        @Override
        public int compareTo(Mark other) {
            int byAt = Long.compare(at, other.at);
            if (byAt != 0) {
                return byAt;
            }
            int byOrd = Long.compare(ord, other.ord);
            return byOrd != 0 ? byOrd : Boolean.compare(other.verified, verified);
        }
    }

    private final ConcurrentSkipListSet<Mark> marks = new ConcurrentSkipListSet<>();
    private volatile boolean caughtUp;

    /** The feed has reached the present once: every tenant with due work up to then was offered to the scheduler. */
    void feedCaughtUp() {
        caughtUp = true;
    }

    /** Replaces the mark {@code old} (or none) with {@code mark} (or none); returns {@code mark}. */
    Mark replace(Mark old, Mark mark) {
        if (Objects.equals(old, mark)) {
            return mark;
        }
        if (old != null) {
            marks.remove(old);
        }
        if (mark != null) {
            marks.add(mark);
        }
        return mark;
    }

    /** Marks held (one per tenant with a known due time). */
    int size() {
        return marks.size();
    }

    /** When the oldest due row is due (queue-clock millis); see the class comment for the sources. */
    OptionalLong oldestDueAt(DeliveryLedger ledger) {
        if (!caughtUp || marks.isEmpty()) {
            return ledger.oldestDueAt();
        }
        long best = Long.MAX_VALUE;
        int checked = 0;
        for (Mark mark : marks) {
            if (mark.at() >= best) {
                break;
            }
            if (mark.verified()) {
                return OptionalLong.of(mark.at());
            }
            if (checked++ == UNVERIFIED_CHECKED) {
                return ledger.oldestDueAt();
            }
            Optional<DueRow> first = ledger.firstDue(mark.ord(), mark.at());
            if (first.isPresent()) {
                best = Math.min(best, first.get().at());
            }
        }
        return best == Long.MAX_VALUE ? ledger.oldestDueAt() : OptionalLong.of(best);
    }
}

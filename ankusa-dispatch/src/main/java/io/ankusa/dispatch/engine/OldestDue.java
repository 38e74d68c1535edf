package io.ankusa.dispatch.engine;

import io.ankusa.dispatch.report.TenantDispatch.Hold;
import io.ankusa.queue.ledger.DeliveryLedger;
import io.ankusa.queue.ledger.DueRow;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.atomic.AtomicLong;

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
 * <p>Beside its mark, each tenant has the scheduler's last word on whether it is held back
 * ({@link Hold}): at its in-flight limit, out of tokens, or every row it read refused by the
 * endpoint gate. The deliverable marks leave held tenants out, and for a tenant whose head rows are
 * refused while its others go, stand at the last row its visit read (a front: every row before it
 * was claimed or refused); the held marks are kept by reason. So the node's deliverable age
 * ({@link #deliverableDueAt}) and its held rows ({@link #held}) cost what the oldest due time costs.
 * A hold is set when the scheduler decides it (a lane yields its turn, waits for tokens, or blocks)
 * and lifted at the lane's next visit, not when it re-enters the ring: between the two it is still
 * held as far as anyone can tell.
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

    /**
     * What the scheduler last said of one tenant.
     *
     * @param mark    its earliest known due time, or null
     * @param hold    whether it is held back
     * @param frontAt queue-clock millis of the last row its visit read while refusals held its head rows,
     *                {@link Long#MIN_VALUE} when none
     */
    private record Entry(Mark mark, Hold hold, long frontAt) {

        static final Entry NONE = new Entry(null, Hold.NONE, Long.MIN_VALUE);

        /** Its mark among the deliverable ones, or null when it is held or has none. */
        Mark deliverable() {
            if (mark == null || hold != Hold.NONE) {
                return null;
            }
            return frontAt > mark.at() ? new Mark(frontAt, mark.ord(), true) : mark;
        }

        /** Its mark among the held ones, or null. */
        Mark held() {
            return mark == null || hold == Hold.NONE ? null : mark;
        }
    }

    /**
     * The rows of one hold reason as the marks know them.
     *
     * @param tenants tenants held for it
     * @param oldest  the earliest mark among them, or null
     * @param first   up to {@code limit} of them, earliest first
     */
    record HeldMarks(long tenants, Mark oldest, List<Long> first) {
    }

    private final ConcurrentSkipListSet<Mark> marks = new ConcurrentSkipListSet<>();
    private final ConcurrentSkipListSet<Mark> deliverable = new ConcurrentSkipListSet<>();
    private final Map<Hold, ConcurrentSkipListSet<Mark>> heldMarks = new EnumMap<>(Hold.class);
    private final Map<Hold, AtomicLong> heldTenants = new EnumMap<>(Hold.class);
    private final ConcurrentHashMap<Long, Entry> entries = new ConcurrentHashMap<>();
    private volatile boolean caughtUp;

    OldestDue() {
        for (Hold hold : Hold.values()) {
            if (hold != Hold.NONE) {
                heldMarks.put(hold, new ConcurrentSkipListSet<>());
                heldTenants.put(hold, new AtomicLong());
            }
        }
    }

    /** The feed has reached the present once: every tenant with due work up to then was offered to the scheduler. */
    void feedCaughtUp() {
        caughtUp = true;
    }

    /** Replaces tenant {@code ord}'s mark with {@code mark} (or none); returns {@code mark}. Tick thread. */
    Mark mark(long ord, Mark mark) {
        Entry was = entries.getOrDefault(ord, Entry.NONE);
        if (!Objects.equals(was.mark(), mark)) {
            put(ord, was, new Entry(mark, was.hold(), was.frontAt()));
        }
        return mark;
    }

    /**
     * The scheduler's word on tenant {@code ord}: held for {@code hold} (or not), and the front of its
     * refused head rows ({@link Long#MIN_VALUE}: none). Tick thread.
     */
    void hold(long ord, Hold hold, long frontAt) {
        Entry was = entries.getOrDefault(ord, Entry.NONE);
        if (was.hold() != hold || was.frontAt() != frontAt) {
            put(ord, was, new Entry(was.mark(), hold, frontAt));
        }
    }

    /** The scheduler forgot tenant {@code ord}. Tick thread. */
    void forget(long ord) {
        Entry was = entries.get(ord);
        if (was != null) {
            put(ord, was, Entry.NONE);
        }
    }

    /** The hold the scheduler last set for tenant {@code ord}. */
    Hold holdOf(long ord) {
        return entries.getOrDefault(ord, Entry.NONE).hold();
    }

    /** The earliest known due time of tenant {@code ord} (queue-clock millis), or empty. */
    OptionalLong markOf(long ord) {
        Mark mark = entries.getOrDefault(ord, Entry.NONE).mark();
        return mark == null ? OptionalLong.empty() : OptionalLong.of(mark.at());
    }

    private void put(long ord, Entry was, Entry now) {
        swap(marks, was.mark(), now.mark());
        swap(deliverable, was.deliverable(), now.deliverable());
        if (was.hold() != now.hold()) {
            if (was.hold() != Hold.NONE) {
                heldTenants.get(was.hold()).decrementAndGet();
            }
            if (now.hold() != Hold.NONE) {
                heldTenants.get(now.hold()).incrementAndGet();
            }
        }
        Mark wasHeld = was.held();
        Mark nowHeld = now.held();
        if (!Objects.equals(wasHeld, nowHeld) || was.hold() != now.hold()) {
            if (wasHeld != null) {
                heldMarks.get(was.hold()).remove(wasHeld);
            }
            if (nowHeld != null) {
                heldMarks.get(now.hold()).add(nowHeld);
            }
        }
        if (now.equals(Entry.NONE)) {
            entries.remove(ord);
        } else {
            entries.put(ord, now);
        }
    }

    private static void swap(ConcurrentSkipListSet<Mark> set, Mark old, Mark mark) {
        if (Objects.equals(old, mark)) {
            return;
        }
        if (old != null) {
            set.remove(old);
        }
        if (mark != null) {
            set.add(mark);
        }
    }

    /** Marks held (one per tenant with a known due time). */
    int size() {
        return marks.size();
    }

    /** Up to {@code limit} tenants with the earliest marks, earliest first. */
    List<Mark> earliest(int limit) {
        List<Mark> first = new ArrayList<>(Math.min(limit, 64));
        for (Mark mark : marks) {
            if (first.size() == limit) {
                break;
            }
            first.add(mark);
        }
        return first;
    }

    /** The tenants held for {@code hold}: how many, the earliest mark, and the first {@code limit} of them. */
    HeldMarks held(Hold hold, int limit) {
        ConcurrentSkipListSet<Mark> set = heldMarks.get(hold);
        List<Long> first = new ArrayList<>(Math.min(limit, 64));
        Mark oldest = null;
        for (Mark mark : set) {
            if (oldest == null) {
                oldest = mark;
            }
            if (first.size() == limit) {
                break;
            }
            first.add(mark.ord());
        }
        return new HeldMarks(Math.max(0, heldTenants.get(hold).get()), oldest, first);
    }

    /**
     * When the oldest row the pipeline should be delivering now is due (queue-clock millis): the first
     * deliverable mark, an unverified one checked with one seek of its tenant (at most
     * {@value #UNVERIFIED_CHECKED}; past them the next unverified mark's second stands, an upper bound
     * of the age). Empty when none is known; before the feed reached the present, from what the
     * scheduler knows so far (a held row must not turn a restarted node's health down while the feed
     * catches up).
     */
    OptionalLong deliverableDueAt(DeliveryLedger ledger) {
        long best = Long.MAX_VALUE;
        int checked = 0;
        for (Mark mark : deliverable) {
            if (mark.at() >= best) {
                break;
            }
            if (mark.verified() || checked++ == UNVERIFIED_CHECKED) {
                best = mark.at();
                break;
            }
            Optional<DueRow> first = ledger.firstDue(mark.ord(), mark.at());
            if (first.isPresent()) {
                best = Math.min(best, first.get().at());
            }
        }
        return best == Long.MAX_VALUE ? OptionalLong.empty() : OptionalLong.of(best);
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

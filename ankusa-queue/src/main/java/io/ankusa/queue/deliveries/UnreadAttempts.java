package io.ankusa.queue.deliveries;

import io.ankusa.queue.ledger.DueKind;
import io.ankusa.queue.ledger.DueRow;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Which due rows a claim may take without reading their delivery rows: a first attempt whose seq
 * is above every seq stored when the ledger was made (and above every row {@link #recovered} moved
 * back to due since). Such a row's delivery row records 0 attempts, so the claim hands the sink
 * attempt 1 without the read.
 *
 * <p>Why that is exact (store format 3, due kinds unchanged). A due row of kind
 * {@link DueKind#FIRST_ATTEMPT} is written by exactly five transitions, and its delivery row is
 * not written again while it stays due (a delivery row is written only by a transition into due
 * or dead, and a row is in one state at a time: retry and dead-letter start from inflight, revive
 * from dead, release from the quarantine, expansion only where no delivery row exists):
 * <ul>
 * <li>ingest and expansion write {@code DeliveryRow.fresh}: 0 attempts;
 * <li>revive (replay) writes the stored row {@code revived()}: 0 attempts;
 * <li>a release from the quarantine writes the stored row {@code revived()}, or a fresh one when
 *     it did not decode: 0 attempts;
 * <li>boot recovery (inflight back to due as a first attempt) keeps the stored row, which may
 *     record any number of attempts: it runs when the queue opens, over rows stored then, and
 *     {@link #recovered} raises the bound to their seqs whenever it runs;
 * <li>the 2 &rarr; 3 migration files a format-2 due row as a first attempt with its delivery row
 *     as it was: it runs before the queue opens, over rows stored then.
 * </ul>
 * So a first attempt with more than 0 attempts has a seq at or below the bound, and a row above
 * it was written in this run by one of the first three (ingest gives every new hook a seq above
 * every seq a delivery row refers to: {@code m:last_seq} is written with the hook, and the
 * migration raises it above every stored row). A {@link DueKind#RETRY} row always needs its
 * delivery row (the attempts so far). Everything else is read as before, and the bound only ever
 * errs on the side of reading.
 *
 * <p>What a row taken without its read does not check: whether its stored delivery row decodes.
 * A row written in this run holds nothing but its size (in the due row too) and 0 attempts; its
 * settle deletes it (delivered, dropped) or writes it anew (retry, dead), so a delivery row damaged
 * in this run costs no information and is not quarantined. A row stored when the queue opened is
 * at or below the bound and read, so damage found at rest still moves it into the quarantine.
 */
final class UnreadAttempts {

    private final AtomicLong storedThroughSeq;

    /**
     * The rule for a ledger over a store whose highest seq, when it was opened, was
     * {@code storedThroughSeq} ({@code Long.MAX_VALUE}: every row is read).
     */
    UnreadAttempts(long storedThroughSeq) {
        this.storedThroughSeq = new AtomicLong(storedThroughSeq);
    }

    /** Whether {@code row} is a first attempt written in this run, whose delivery row records 0 attempts. */
    boolean fresh(DueRow row) {
        return row.kind() == DueKind.FIRST_ATTEMPT && row.seq() > storedThroughSeq.get();
    }

    /** Boot recovery made the row of {@code seq} due again as a first attempt, its attempts kept. */
    void recovered(long seq) {
        storedThroughSeq.accumulateAndGet(seq, Math::max);
    }
}

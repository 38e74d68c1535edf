package io.ankusa.kafka;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * One partition's low watermark: the first offset whose hook may still owe a delivery in the
 * partition's store, which is what the node commits to Kafka.
 *
 * <p>How it knows. Every record the node submits is <i>in flight</i> until its ingest completes;
 * an accepted hook then <i>owes</i> one settle per sink, and the pipeline's {@code onSettled}
 * events (delivered, dead or dropped; a retry still owes) pay them off, by the hook's seq; a
 * refused record is <i>handled</i> once it is published to the refused topic. The watermark is the
 * lowest offset in flight or owed, else the next offset to read.
 *
 * <p>What it cannot see, and what it does then. Hooks already in the store when the partition was
 * opened (a restart) have no known offset: until the settles of every row owed at open have been
 * seen, the watermark stays at the offset Kafka had committed (the floor). Events are an
 * observation channel that may drop under load: after a drop the watermark also stays at the floor.
 * Either way it is released by {@link #resync}, when the store is seen with nothing owed: every
 * hook up to the store's intake position is settled then. Holding the floor is always safe (it only
 * widens the duplicate window of a takeover); passing an owed hook would lose it, and nothing here
 * ever does.
 *
 * <p>Thread-safe: the node's poll thread submits and reads, the pipeline's event thread settles.
 */
final class Watermark {

    /** offset -> {seq, settles still owed}. */
    private final TreeMap<Long, long[]> owed = new TreeMap<>();
    private final Map<Long, Long> offsetBySeq = new HashMap<>();
    /** Settles seen for a seq whose receipt has not been seen yet. */
    private final Map<Long, Integer> early = new HashMap<>();
    private final TreeSet<Long> inFlight = new TreeSet<>();
    /** Settles seen while the first receipt of this session (the seq boundary) was unknown. */
    private final List<Long> unclassified = new ArrayList<>();
    private long next;
    private long floor;
    private long legacyRows;
    private long boundarySeq = -1;
    private boolean unsure;

    /**
     * @param next       the offset the node resumes reading from
     * @param floor      the offset Kafka had committed (or {@code next} when none)
     * @param legacyRows rows owed in the store when it was opened
     */
    Watermark(long next, long floor, long legacyRows) {
        this.next = next;
        this.floor = floor;
        this.legacyRows = legacyRows;
    }

    synchronized void submitted(long offset) {
        inFlight.add(offset);
        next = Math.max(next, offset + 1);
    }

    /** The record at {@code offset} was skipped without ingest (already in the store). */
    synchronized void skipped(long offset) {
        next = Math.max(next, offset + 1);
    }

    synchronized void accepted(long offset, long seq, int sinks) {
        inFlight.remove(offset);
        if (boundarySeq < 0) {
            boundarySeq = seq;
            unclassified.forEach(this::classify);
            unclassified.clear();
        }
        if (seq < boundarySeq || offsetBySeq.containsKey(seq)) {
            return; // a repeat of a hook already owed (or of one from before the open): it owes nothing new
        }
        Integer paid = early.remove(seq);
        long remaining = sinks - (paid == null ? 0 : paid);
        if (remaining > 0) {
            owed.put(offset, new long[] {seq, remaining});
            offsetBySeq.put(seq, offset);
        }
    }

    /** The intake offset of the hook {@code seq} while it owes a settle, else -1. */
    synchronized long offsetOf(long seq) {
        return offsetBySeq.getOrDefault(seq, -1L);
    }

    /** The record at {@code offset} needs nothing more from the store (refused and published aside). */
    synchronized void handled(long offset) {
        inFlight.remove(offset);
    }

    /** One row of the hook {@code seq} settled for good (delivered, dead or dropped). */
    synchronized void settled(long seq) {
        if (boundarySeq < 0) {
            if (inFlight.isEmpty() && owed.isEmpty()) {
                legacySettled();
            } else {
                unclassified.add(seq);
            }
            return;
        }
        classify(seq);
    }

    private void classify(long seq) {
        if (seq < boundarySeq) {
            legacySettled();
            return;
        }
        Long offset = offsetBySeq.get(seq);
        if (offset == null) {
            early.merge(seq, 1, Integer::sum);
            return;
        }
        long[] entry = owed.get(offset);
        if (--entry[1] <= 0) {
            owed.remove(offset);
            offsetBySeq.remove(seq);
        }
    }

    private void legacySettled() {
        if (legacyRows > 0) {
            legacyRows--;
        }
    }

    /** Events were dropped: hold the floor until {@link #resync}. */
    synchronized void eventsDropped() {
        unsure = true;
    }

    /**
     * The store was seen with nothing owed after its intake position read {@code position}: every
     * hook up to it is settled.
     */
    synchronized void resync(long position) {
        owed.headMap(position, true).values().forEach(entry -> offsetBySeq.remove(entry[0]));
        owed.headMap(position, true).clear();
        early.clear();
        legacyRows = 0;
        unsure = false;
        floor = Math.max(floor, position + 1);
    }

    /** The offset to commit. */
    synchronized long watermark() {
        if (unsure || legacyRows > 0) {
            return floor;
        }
        long low = next;
        if (!owed.isEmpty()) {
            low = Math.min(low, owed.firstKey());
        }
        if (!inFlight.isEmpty()) {
            low = Math.min(low, inFlight.first());
        }
        return low;
    }

    synchronized boolean unsure() {
        return unsure || legacyRows > 0;
    }
}

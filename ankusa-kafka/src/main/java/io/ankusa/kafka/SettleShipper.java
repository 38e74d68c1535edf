package io.ankusa.kafka;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes one partition's settles to the settles topic ({@link SettleRecord}) and tells the
 * watermark commit how far it may go: never past a hook whose settle Kafka has not acknowledged.
 *
 * <p>The pipeline's listener hands it each delivered or dead (seq, sink) with the intake offset the
 * {@link Watermark} knows for the seq ({@link #settled}); a settle seen before its ingest receipt
 * waits for {@link #accepted} to name the offset. {@link #publish} (the node's publisher thread,
 * every publish interval) sends what is queued; {@link #cap} lowers a watermark to the lowest
 * offset with a settle queued or unacknowledged (a dead settle is queued only once its dead letter is
 * in the dead-letter topic: {@link #takeDead}); {@link #committed} tombstones every key below a
 * committed watermark. It also holds what the topic said on assign ({@link #alreadySettled}), for a
 * node that opened the store new and must skip those deliveries at intake.
 *
 * <p>Thread-safe: the listener's thread settles, the poll thread accepts, caps and commits, the
 * publisher thread publishes, the producer's thread acknowledges. No lock is held across a send.
 */
final class SettleShipper {

    private static final Logger LOG = LoggerFactory.getLogger(SettleShipper.class);

    private final Producer<String, byte[]> producer;
    private final String topic;
    private final int partition;
    private final Watermark watermark;
    /** Settles waiting for the next publish. */
    private List<SettleRecord> queued = new ArrayList<>();
    /** Dead settles waiting until their dead letter is acknowledged in the dead-letter topic. */
    private List<SettleRecord> heldDead = new ArrayList<>();
    /** offset -> settles of it queued or sent and not yet acknowledged. */
    private final TreeMap<Long, Integer> unacked = new TreeMap<>();
    /** offset -> sinks whose settle record the topic holds (published here, or read on assign). */
    private final TreeMap<Long, Set<Integer>> inTopic = new TreeMap<>();
    /** What the topic said on assign, at or after the resume offset: offset -> settled sinks. */
    private final Map<Long, Set<Integer>> skip = new HashMap<>();
    /** Settles seen before the ingest receipt of their seq: seq -> settles (offset unknown, -1). */
    private final Map<Long, List<SettleRecord>> early = new HashMap<>();
    /** The first seq accepted since the store opened; a lower one is from before (its offset unknown). */
    private long boundarySeq = -1;

    /**
     * @param read the partition's share of the topic as read on assign (latest record per key)
     */
    SettleShipper(Producer<String, byte[]> producer, String topic, int partition, Watermark watermark,
            Iterable<SettleRecord> read) {
        this.producer = producer;
        this.topic = topic;
        this.partition = partition;
        this.watermark = watermark;
        for (SettleRecord record : read) {
            inTopic.computeIfAbsent(record.offset(), o -> new HashSet<>()).add(record.sink());
        }
    }

    /**
     * Makes the deliveries the topic names at or after {@code resumeAt} the ones to skip at intake.
     *
     * @return how many hooks have a delivery to skip
     */
    synchronized int skipFrom(long resumeAt) {
        inTopic.tailMap(resumeAt, true).forEach((offset, sinks) -> skip.put(offset, new HashSet<>(sinks)));
        return skip.size();
    }

    /** The sinks of the hook at {@code offset} another owner already settled (empty: none). */
    synchronized Set<Integer> alreadySettled(long offset) {
        Set<Integer> sinks = skip.get(offset);
        return sinks == null ? Set.of() : Set.copyOf(sinks);
    }

    /**
     * The hook at {@code offset} was accepted as {@code seq}: records it in the watermark and queues
     * the settles of it seen before this receipt.
     */
    synchronized void accepted(long offset, long seq, int sinks) {
        watermark.accepted(offset, seq, sinks);
        if (boundarySeq < 0) {
            boundarySeq = seq;
            early.keySet().removeIf(s -> s < seq);
        }
        List<SettleRecord> held = early.remove(seq);
        if (held != null) {
            for (SettleRecord r : held) {
                queue(new SettleRecord(offset, r.sink(), r.dead()));
            }
        }
    }

    /**
     * The delivery (seq, sink) settled for good, delivered or dead. Call it before the watermark
     * hears of it, so that the watermark never passes the hook while its settle is not queued.
     */
    synchronized void settled(long seq, int sink, boolean dead) {
        long offset = watermark.offsetOf(seq);
        if (offset >= 0) {
            queue(new SettleRecord(offset, sink, dead));
        } else if (boundarySeq < 0 || seq >= boundarySeq) {
            early.computeIfAbsent(seq, s -> new ArrayList<>()).add(new SettleRecord(0, sink, dead));
        }
        // else a hook from before this store was opened: its offset is unknown, and the watermark holds its floor
    }

    private void queue(SettleRecord record) {
        (record.dead() ? heldDead : queued).add(record);
        unacked.merge(record.offset(), 1, Integer::sum);
    }

    /**
     * Takes the dead settles held so far; call it before the dead-letter shipper catches up, and
     * {@link #releaseDead} them once it did (their letters are then in the dead-letter topic), or
     * {@link #holdDead} them again when it failed. A dead settle in the topic before its letter
     * would let a node taking over skip the delivery with no letter to restore.
     */
    synchronized List<SettleRecord> takeDead() {
        List<SettleRecord> taken = heldDead;
        heldDead = new ArrayList<>();
        return taken;
    }

    /** Queues {@code dead} for the next publish: their letters are acknowledged. */
    synchronized void releaseDead(List<SettleRecord> dead) {
        queued.addAll(dead);
    }

    /** Holds {@code dead} again: their letters were not acknowledged. */
    synchronized void holdDead(List<SettleRecord> dead) {
        heldDead.addAll(dead);
    }

    /**
     * Sends every queued settle; each is acknowledged when Kafka acknowledges its send, and a failed
     * send is queued again.
     *
     * @return how many it sent
     */
    int publish() {
        List<SettleRecord> batch;
        synchronized (this) {
            if (queued.isEmpty()) {
                return 0;
            }
            batch = queued;
            queued = new ArrayList<>();
        }
        for (SettleRecord record : batch) {
            try {
                producer.send(new ProducerRecord<>(topic, partition, record.key(), record.encode()),
                        (metadata, error) -> acknowledged(record, error));
            } catch (RuntimeException e) {
                acknowledged(record, e);
            }
        }
        return batch.size();
    }

    private synchronized void acknowledged(SettleRecord record, Exception error) {
        if (error != null) {
            LOG.warn("settle {} of partition {} not published to {}; sent again at the next publish", record.key(),
                    partition, topic, error);
            queued.add(record);
            return;
        }
        unacked.computeIfPresent(record.offset(), (o, n) -> n <= 1 ? null : n - 1);
        inTopic.computeIfAbsent(record.offset(), o -> new HashSet<>()).add(record.sink());
    }

    /** {@code watermark}, lowered to the lowest offset with a settle queued or not yet acknowledged. */
    synchronized long cap(long watermark) {
        return unacked.isEmpty() ? watermark : Math.min(watermark, unacked.firstKey());
    }

    /** Whether every settle queued so far was acknowledged. */
    synchronized boolean allAcknowledged() {
        return unacked.isEmpty();
    }

    /**
     * The watermark {@code committed} was committed: tombstones every key below it (the intake is
     * not read there again) and forgets them.
     *
     * @return how many tombstones it sent
     */
    int committed(long committed) {
        List<String> keys = new ArrayList<>();
        synchronized (this) {
            Map<Long, Set<Integer>> below = inTopic.headMap(committed, false);
            below.forEach((offset, sinks) -> sinks.forEach(sink -> keys.add(SettleRecord.key(offset, sink))));
            below.clear();
            skip.keySet().removeIf(offset -> offset < committed);
        }
        for (String key : keys) {
            try {
                producer.send(new ProducerRecord<>(topic, partition, key, null), (metadata, error) -> {
                    if (error != null) {
                        LOG.warn("tombstone of settle {} of partition {} not published to {}: the record stays "
                                + "until a later owner tombstones it", key, partition, topic, error);
                    }
                });
            } catch (RuntimeException e) {
                LOG.warn("tombstone of settle {} of partition {} not published to {}", key, partition, topic, e);
            }
        }
        return keys.size();
    }
}

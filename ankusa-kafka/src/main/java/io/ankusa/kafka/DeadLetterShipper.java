package io.ankusa.kafka;

import io.ankusa.api.DeadLetter;
import io.ankusa.api.DeadLetterCursor;
import io.ankusa.api.DeadLetterPage;
import io.ankusa.api.DeadLetterQuery;
import io.ankusa.api.Hook;
import io.ankusa.api.PurgeKind;
import io.ankusa.api.PurgeResult;
import io.ankusa.dispatch.ReplayResult;
import io.ankusa.dispatch.Replayer;
import io.ankusa.queue.Queue;
import io.ankusa.queue.ledger.DeliveryLedger;
import io.ankusa.queue.ledger.LedgerSource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;

/**
 * Keeps one partition's share of the dead-letter topic equal to its store's dead letters: publishes
 * every dead letter of the store the topic does not hold yet ({@link #catchUp}), and a tombstone
 * for each letter replayed or purged through it. The node calls {@link #catchUp} after it took the
 * watermark it is about to commit and before it commits it, so a committed watermark never passes
 * a dead letter the topic does not hold: every settle the watermark counted was committed to the
 * store before its event, so the scan that follows sees the dead row.
 *
 * <p>It finds new letters by paging the store's dead index newest first down to the newest
 * dead-lettered time it has published (the queue clock never goes backwards), so a catch-up with
 * nothing new reads one page. It remembers which letters the topic holds ({@code key -> deadAt});
 * a letter dead-lettered again after a replay done behind its back (same key, later time) is
 * published again.
 *
 * <p>Thread-safe: the node's poll thread catches up, an operator's thread replays or purges.
 */
final class DeadLetterShipper {

    private static final int PAGE = 500;

    private final Queue queue;
    private final DeliveryLedger ledger;
    private final Producer<String, byte[]> producer;
    private final String topic;
    private final int partition;
    /** key -> deadAt (epoch ms) of the version the topic holds. */
    private final Map<String, Long> inTopic;
    /** Intake offsets of hooks whose dead settle was seen, by seq, until their letter is published. */
    private final Map<Long, Long> offsets = new ConcurrentHashMap<>();
    private long newestAt = Long.MIN_VALUE;
    private boolean scanned;

    DeadLetterShipper(Queue queue, Producer<String, byte[]> producer, String topic, int partition,
            Map<String, Long> inTopic) {
        this.queue = queue;
        this.ledger = LedgerSource.of(queue).deliveryLedger();
        this.producer = producer;
        this.topic = topic;
        this.partition = partition;
        this.inTopic = new HashMap<>(inTopic);
    }

    /** The hook {@code seq} was dead-lettered; its intake offset was {@code offset} (-1 unknown). */
    void deadSettled(long seq, long offset) {
        if (offset >= 0) {
            offsets.put(seq, offset);
        }
    }

    /**
     * Publishes every dead letter of the store the topic does not hold yet and waits until Kafka
     * acknowledged each.
     *
     * @return how many letters it published
     * @throws DeadLetterPublishException when one was not acknowledged (the caller must not commit)
     */
    synchronized int catchUp() {
        List<DeadLetter> fresh = new ArrayList<>();
        long newest = newestAt;
        Optional<DeadLetterCursor> after = Optional.empty();
        walk:
        while (true) {
            DeadLetterQuery query = DeadLetterQuery.all().limit(PAGE);
            DeadLetterPage page = queue.deadLetters(after.isPresent() ? query.after(after.get()) : query);
            for (DeadLetter letter : page.letters()) {
                long at = letter.deadAt().toEpochMilli();
                if (scanned && at < newestAt) {
                    break walk;
                }
                newest = Math.max(newest, at);
                Long held = inTopic.get(DeadLetterRecord.key(letter));
                if (held == null || held != at) {
                    fresh.add(letter);
                }
            }
            if (!page.hasMore()) {
                break;
            }
            after = page.next();
        }
        List<Future<RecordMetadata>> sends = new ArrayList<>(fresh.size());
        for (DeadLetter letter : fresh) {
            Optional<Hook> hook = ledger.storedHook(letter.seq());
            long offset = offsets.getOrDefault(letter.seq(), -1L);
            DeadLetterRecord record = new DeadLetterRecord(letter, offset, hook);
            ProducerRecord<String, byte[]> sent = new ProducerRecord<>(topic, partition, record.key(), record.encode());
            record.writeTrace(sent.headers());
            sends.add(producer.send(sent));
        }
        await(sends);
        for (DeadLetter letter : fresh) {
            inTopic.put(DeadLetterRecord.key(letter), letter.deadAt().toEpochMilli());
            offsets.remove(letter.seq());
        }
        newestAt = newest;
        scanned = true;
        return fresh.size();
    }

    /** Replays {@code tenant}'s dead letters, then tombstones the letters it revived. */
    synchronized ReplayResult replayTenant(String tenant) {
        Set<String> before = letters(tenant);
        ReplayResult result = Replayer.of(queue).replayTenant(tenant);
        tombstoneGone(tenant, before);
        return result;
    }

    /** Replays {@code tenant}'s dead letters of hook {@code hookId}, then tombstones them. */
    synchronized ReplayResult replayHook(String tenant, String hookId) {
        Set<String> before = letters(tenant);
        ReplayResult result = Replayer.of(queue).replayHook(tenant, hookId);
        tombstoneGone(tenant, before);
        return result;
    }

    /** Purges {@code tenant}'s dead letters, then tombstones them. */
    synchronized PurgeResult purgeTenant(String tenant) {
        Set<String> before = letters(tenant);
        PurgeResult result = queue.purgeTenant(tenant, Set.of(PurgeKind.DEAD));
        tombstoneGone(tenant, before);
        return result;
    }

    private void tombstoneGone(String tenant, Set<String> before) {
        before.removeAll(letters(tenant));
        List<Future<RecordMetadata>> sends = new ArrayList<>(before.size());
        for (String key : before) {
            sends.add(producer.send(new ProducerRecord<>(topic, partition, key, null)));
        }
        await(sends);
        before.forEach(inTopic::remove);
    }

    /** The keys of {@code tenant}'s dead letters in the store. */
    private Set<String> letters(String tenant) {
        Set<String> keys = new HashSet<>();
        Optional<DeadLetterCursor> after = Optional.empty();
        while (true) {
            DeadLetterQuery query = DeadLetterQuery.tenants(tenant).limit(PAGE);
            DeadLetterPage page = queue.deadLetters(after.isPresent() ? query.after(after.get()) : query);
            page.letters().forEach(l -> keys.add(DeadLetterRecord.key(l)));
            if (!page.hasMore()) {
                return keys;
            }
            after = page.next();
        }
    }

    private void await(List<Future<RecordMetadata>> sends) {
        try {
            for (Future<RecordMetadata> send : sends) {
                send.get();
            }
        } catch (ExecutionException e) {
            throw new DeadLetterPublishException("a dead letter of partition " + partition + " was not published to "
                    + topic,
                    e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DeadLetterPublishException("interrupted publishing dead letters to " + topic, e);
        }
    }
}

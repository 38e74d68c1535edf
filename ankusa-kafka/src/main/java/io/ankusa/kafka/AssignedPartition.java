package io.ankusa.kafka;

import io.ankusa.api.AnkusaException;
import io.ankusa.api.Hook;
import io.ankusa.api.IntakePosition;
import io.ankusa.api.InvalidHookException;
import io.ankusa.api.QueueConfig;
import io.ankusa.api.QueueHealth;
import io.ankusa.api.QueueStats;
import io.ankusa.api.Receipt;
import io.ankusa.api.TenantErasingException;
import io.ankusa.api.TenantLimitException;
import io.ankusa.api.TenantOverloadedException;
import io.ankusa.api.events.DeliverySettled;
import io.ankusa.api.events.QueueListener;
import io.ankusa.dispatch.Pipeline;
import io.ankusa.dispatch.sink.Sink;
import io.ankusa.queue.Queue;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One assigned partition on a node: its store ({@code <root>/<topic>-<partition>}), its pipeline,
 * and its {@link Watermark}. Records are ingested with their offsets as intake positions, so a
 * record lands in the store with its position in one synced batch; a record the queue refuses for
 * good (it does not decode, or is invalid, over the tenant limit, refused by admission, or its
 * tenant is being erased) is published to the refused topic with the reason, never dropped.
 * A failed store commit is read again from its first record ({@link #ingest}); a failure that
 * persists, or a queue that failed for good, stops the partition: it is paused, its watermark
 * stays below the record, and a restart resumes from the store.
 */
final class AssignedPartition implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(AssignedPartition.class);

    /** What {@link #ingest} returns when the partition stopped. */
    static final long FAILED = -2;
    /** Reads again at one offset before the partition stops. */
    static final int RETRIES = 5;

    private final TopicPartition partition;
    private final String source;
    private final Queue queue;
    private final Pipeline pipeline;
    private final Watermark watermark;
    private final DeadLetterShipper shipper;
    private final SettleShipper settled;
    private final long resumeAt;
    private final Duration ingestWait;
    private long dropsSeen;
    private volatile boolean failed;
    /** Offsets after a failed commit that landed (or went aside) anyway: skipped when read again. */
    private final Set<Long> landed = new HashSet<>();
    /** The highest intake position that landed after a failed commit: records below it are ingested without one. */
    private long positionHigh = -1;
    private long lastRetryFrom = -1;
    private int retries;

    private AssignedPartition(TopicPartition partition, Queue queue, Pipeline.Builder pipeline, Watermark watermark,
            long resumeAt, Duration ingestWait, Settles settles, DeadLetterShipper shipper, SettleShipper settled) {
        this.partition = partition;
        this.shipper = shipper;
        this.settled = settled;
        this.source = source(partition);
        this.queue = queue;
        this.watermark = watermark;
        this.resumeAt = resumeAt;
        this.ingestWait = ingestWait;
        settles.watermark = watermark;
        settles.shipper = shipper;
        settles.settled = settled;
        this.pipeline = pipeline.manual();
    }

    static String source(TopicPartition partition) {
        return partition.topic() + "-" + partition.partition();
    }

    /**
     * Opens (or creates) the partition's store and builds its pipeline (not started). Reading resumes
     * after the store's intake position, or at Kafka's committed offset when that is further (another
     * node took the partition further since this store last saw it) or the store has none. A store
     * opened new or behind the partition skips, at intake, the deliveries the settles topic says
     * another owner settled at or after the offset it resumes from.
     */
    static AssignedPartition open(TopicPartition partition, Path root, UnaryOperator<QueueConfig.Builder> queueConfig,
            Function<QueueConfig, Queue> opener, Sink sink, UnaryOperator<Pipeline.Builder> pipelineConfig,
            OptionalLong committed, Duration ingestWait, DeadLetters deadLetters, SettledTopic settledTopic,
            boolean ownedByAnother) {
        Path directory = root.resolve(source(partition));
        if (ownedByAnother && Files.isDirectory(directory)) {
            // The store predates another owner's deliveries: it would deliver again what that owner
            // settled. Discard it; the partition is restored as on a node without the store.
            LOG.warn("partition {}: another node committed it since this store last saw it; the store is discarded "
                    + "and the partition restored from the dead-letter and settles topics", partition);
            NodeId.deleteTree(directory);
        }
        Queue queue = opener.apply(queueConfig.apply(QueueConfig.builder(directory)).build());
        try {
            OptionalLong position = queue.intakePosition(source(partition));
            long fromStore = position.isPresent() ? position.getAsLong() + 1 : 0;
            long resumeAt = Math.max(fromStore, committed.orElse(0));
            Map<String, Long> inTopic = new HashMap<>();
            deadLetters.records().forEach((key, record) -> inTopic.put(key, record.letter().deadAt().toEpochMilli()));
            boolean behind = position.isEmpty() || fromStore < committed.orElse(0);
            Set<String> settledDead = new HashSet<>();
            settledTopic.records().forEach(r -> {
                if (r.dead()) {
                    settledDead.add(r.key());
                }
            });
            if (behind) {
                // A new store, or one behind the partition: restore the letters others dead-lettered,
                // and those after the resume offset whose settle says dead (their hook is skipped at intake).
                DeadLetterRestore.Result restored =
                        DeadLetterRestore.restore(queue, deadLetters.records().values(), resumeAt,
                        ingestWait, settledDead);
                deadLetters.tombstone(restored.reread());
                restored.reread().forEach(inTopic::remove);
                if (restored.restored() > 0 || !restored.reread().isEmpty()) {
                    LOG.info("partition {}: {} dead letters restored from {}, {} tombstoned "
                            + "(their hooks are read again)",
                            partition, restored.restored(), deadLetters.topic(), restored.reread().size());
                }
            }
            QueueStats stats = queue.stats();
            long owedRows = stats.pending() + stats.scheduled() + stats.inflight();
            Watermark watermark = new Watermark(resumeAt, committed.orElse(resumeAt), owedRows);
            SettleShipper settled = new SettleShipper(settledTopic.producer(), settledTopic.topic(),
                    settledTopic.partition(), watermark, settledTopic.records());
            int skipping = behind ? settled.skipFrom(resumeAt) : 0;
            LOG.info("partition {}: resumes at offset {} (store {}, committed {}); {} settles read from {}, {} hooks "
                    + "whose settles it names skipped at intake", partition, resumeAt,
                    position.isPresent() ? Long.toString(position.getAsLong()) : "new",
                    committed.isPresent() ? Long.toString(committed.getAsLong()) : "none",
                    settledTopic.records().size(), settledTopic.topic(), skipping);
            DeadLetterShipper shipper = new DeadLetterShipper(queue, deadLetters.producer(), deadLetters.topic(),
                    deadLetters.partition(), inTopic);
            Settles settles = new Settles();
            Pipeline.Builder builder = pipelineConfig.apply(Pipeline.builder(queue, sink)).listener(settles);
            return new AssignedPartition(partition, queue, builder, watermark, resumeAt, ingestWait, settles, shipper,
                    settled);
        } catch (RuntimeException e) {
            queue.close();
            throw e;
        }
    }

    /**
     * The partition's share of the dead-letter topic as the node read it on assign, and how to
     * publish to it.
     *
     * @param topic    the dead-letter topic
     * @param partition its partition for this intake partition (the same number)
     * @param records  its latest record per key in this partition (tombstoned keys left out)
     * @param producer the node's producer
     */
    record DeadLetters(String topic, int partition, Map<String, DeadLetterRecord> records,
            Producer<String, byte[]> producer) {

        void tombstone(List<String> keys) {
            List<Future<RecordMetadata>> sends = new ArrayList<>();
            for (String key : keys) {
                sends.add(producer.send(new ProducerRecord<>(topic, partition, key, null)));
            }
            try {
                for (Future<RecordMetadata> send : sends) {
                    send.get();
                }
            } catch (ExecutionException e) {
                throw new DeadLetterPublishException("a tombstone was not published to " + topic, e.getCause());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new DeadLetterPublishException("interrupted publishing tombstones to " + topic, e);
            }
        }
    }

    /**
     * The partition's share of the settles topic as the node read it on assign, and how to publish
     * to it.
     *
     * @param topic     the settles topic
     * @param partition its partition for this intake partition (the same number)
     * @param records   its latest record per key in this partition (tombstoned keys left out)
     * @param producer  the node's producer
     */
    record SettledTopic(String topic, int partition, List<SettleRecord> records, Producer<String, byte[]> producer) {
    }

    /**
     * Forwards the pipeline's final settles to the watermark, a dead settle's intake offset to the
     * dead-letter shipper (which publishes the letter before the watermark is committed), and each
     * delivered or dead settle to the settle shipper (acknowledged before the watermark passes it).
     */
    private static final class Settles implements QueueListener {
        private volatile Watermark watermark;
        private volatile DeadLetterShipper shipper;
        private volatile SettleShipper settled;

        @Override
        public void onSettled(DeliverySettled event) {
            if (event.result() == DeliverySettled.Result.DEAD) {
                shipper.deadSettled(event.seq(), watermark.offsetOf(event.seq()));
            }
            // Before the watermark hears of it: the commit never passes a settle not yet queued.
            if (event.result() == DeliverySettled.Result.DELIVERED || event.result() == DeliverySettled.Result.DEAD) {
                settled.settled(event.seq(), event.sink(), event.result() == DeliverySettled.Result.DEAD);
            }
            if (event.result() != DeliverySettled.Result.RETRIED) {
                watermark.settled(event.seq());
            }
        }
    }

    TopicPartition partition() {
        return partition;
    }

    long resumeAt() {
        return resumeAt;
    }

    Queue queue() {
        return queue;
    }

    Pipeline pipeline() {
        return pipeline;
    }

    boolean failed() {
        return failed;
    }

    void startDispatch() {
        pipeline.start();
    }

    /**
     * Ingests one poll's records of this partition, in offset order, and waits until each is in
     * the store (or refused and published aside). Returns the offset to read again from when a
     * store commit failed (the node seeks there), -1 when every record is in or aside, or
     * {@link #FAILED} when the partition stopped.
     *
     * <p>A failed commit fails its writer batch only: a later batch of the same poll may commit,
     * and its intake position then passes the failed records. So on a failed commit the node reads
     * again from the first failed offset; the records after it that did land (or were refused and
     * published aside) are remembered and skipped when read again, so none is ingested twice. After
     * A record read again below a position that landed meanwhile is ingested without a position, so
     * the store's position never goes back. After {@value #RETRIES} failed reads at the same offset, or when the queue
     * failed for good, the partition stops (paused, its watermark below the record).
     */
    long ingest(List<ConsumerRecord<String, byte[]>> records, Producer<String, byte[]> refusedProducer,
            String refusedTopic) {
        if (failed) {
            return FAILED;
        }
        List<ConsumerRecord<String, byte[]>> submitted = new ArrayList<>(records.size());
        List<CompletableFuture<Receipt>> receipts = new ArrayList<>(records.size());
        List<Integer> sinks = new ArrayList<>(records.size());
        List<Refusal> refusals = new ArrayList<>();
        for (ConsumerRecord<String, byte[]> record : records) {
            if (record.offset() < resumeAt || landed.remove(record.offset())) {
                watermark.skipped(record.offset());
                continue; // already in the store (a seek that went back)
            }
            Hook hook;
            try {
                hook = withoutSettled(record.offset(), HookRecord.decode(record.value(), record.headers()));
            } catch (RuntimeException e) {
                // Not a hook record, a hook that breaks the input rules, or malformed trace headers:
                // refused, never dropped.
                watermark.submitted(record.offset());
                refusals.add(new Refusal(record, e instanceof AnkusaException refusal ? refusal.error() : "undecodable",
                        String.valueOf(e.getMessage())));
                continue;
            }
            if (hook == null) {
                watermark.skipped(record.offset());
                continue; // every sink settled by another owner (the settles topic)
            }
            watermark.submitted(record.offset());
            submitted.add(record);
            sinks.add(hook.sinks().size());
            // Read again below a position that landed after a failed commit: the store's position must not go back.
            receipts.add(record.offset() < positionHigh ? queue.ingest(hook, ingestWait)
                    : queue.ingest(hook, new IntakePosition(source, record.offset()), ingestWait));
        }
        long retryFrom = -1;
        Throwable failure = null;
        for (int i = 0; i < receipts.size(); i++) {
            ConsumerRecord<String, byte[]> record = submitted.get(i);
            try {
                Receipt receipt = receipts.get(i).join();
                settled.accepted(record.offset(), receipt.seq(), sinks.get(i));
                if (retryFrom >= 0) {
                    landed.add(record.offset()); // a later batch committed: skip it when read again
                    positionHigh = Math.max(positionHigh, record.offset());
                }
            } catch (CompletionException e) {
                Throwable cause = e.getCause();
                if (cause instanceof InvalidHookException || cause instanceof TenantLimitException
                        || cause instanceof TenantOverloadedException || cause instanceof TenantErasingException) {
                    refusals.add(new Refusal(record, ((AnkusaException) cause).error(),
                            String.valueOf(cause.getMessage())));
                } else if (retryFrom < 0) {
                    retryFrom = record.offset();
                    failure = cause;
                }
            }
        }
        for (Refusal refusal : refusals) {
            if (publishRefused(refusal, refusedProducer, refusedTopic) && retryFrom >= 0
                    && refusal.record().offset() > retryFrom) {
                landed.add(refusal.record().offset());
            }
        }
        if (failed) {
            return FAILED;
        }
        if (retryFrom < 0) {
            retries = 0;
            return -1;
        }
        retries = retryFrom == lastRetryFrom ? retries + 1 : 1;
        lastRetryFrom = retryFrom;
        if (retries > RETRIES || queue.health().state() == QueueHealth.State.FAILED) {
            failed = true;
            LOG.error("partition {} stopped at offset {}: its queue failed to ingest ({} reads); it stays paused and "
                    + "its watermark below the record until the node restarts", partition, retryFrom, retries, failure);
            return FAILED;
        }
        LOG.warn("partition {}: a store commit failed at offset {}; reading again from there", partition, retryFrom,
                failure);
        return retryFrom;
    }

    /**
     * {@code hook} without the sinks another owner settled at {@code offset} (the settles topic), or
     * null when it settled them all.
     */
    private Hook withoutSettled(long offset, Hook hook) {
        Set<Integer> done = settled.alreadySettled(offset);
        if (done.isEmpty()) {
            return hook;
        }
        List<Integer> rest = hook.sinks().stream().filter(s -> !done.contains(s)).toList();
        if (rest.isEmpty()) {
            return null;
        }
        Hook.Builder copy = Hook.builder().id(hook.id()).sourceId(hook.sourceId()).headers(hook.headers())
                .payload(hook.payload()).sinks(rest);
        hook.tenantId().ifPresent(copy::tenantId);
        hook.idempotencyKey().ifPresent(copy::idempotencyKey);
        hook.orderingKey().ifPresent(copy::orderingKey);
        hook.traceContext().ifPresent(copy::traceContext);
        return copy.build();
    }

    private record Refusal(ConsumerRecord<String, byte[]> record, String error, String message) {
    }

    private boolean publishRefused(Refusal refusal, Producer<String, byte[]> producer, String topic) {
        ProducerRecord<String, byte[]> aside =
                new ProducerRecord<>(topic, refusal.record().key(), refusal.record().value());
        aside.headers().add("ankusa-error", refusal.error().getBytes(StandardCharsets.UTF_8));
        aside.headers().add("ankusa-reason", refusal.message().getBytes(StandardCharsets.UTF_8));
        aside.headers()
                .add("ankusa-source", (source + "@" + refusal.record().offset()).getBytes(StandardCharsets.UTF_8));
        try {
            producer.send(aside).get();
            watermark.handled(refusal.record().offset());
            LOG.warn("record {}@{} refused ({}: {}); published to {}", source, refusal.record().offset(),
                    refusal.error(),
                    refusal.message(), topic);
            return true;
        } catch (ExecutionException | RuntimeException e) {
            failed = true;
            LOG.error("partition {} stopped: the refused record at offset {} could not be published to {}", partition,
                    refusal.record().offset(), topic, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            failed = true;
        }
        return false;
    }

    /** The offset to commit now; resyncs the watermark first when the store owes nothing. */
    long watermark() {
        long drops = pipeline.eventsDropped();
        if (drops != dropsSeen) {
            dropsSeen = drops;
            watermark.eventsDropped();
        }
        if (watermark.unsure()) {
            OptionalLong position = queue.intakePosition(source);
            QueueStats stats = queue.stats();
            if (position.isPresent() && stats.pending() + stats.scheduled() + stats.inflight() == 0
                    && pipeline.eventsDropped() == drops) {
                watermark.resync(position.getAsLong());
            }
        }
        // Taken first, then capped: a settle is queued before the watermark counts it, so a hook
        // the watermark passed has its settle acknowledged, or capped here.
        return settled.cap(watermark.watermark());
    }

    /** Sends the settles queued since the last publish (the node's publisher thread). */
    int publishSettles() {
        return settled.publish();
    }

    /** The watermark {@code offset} was committed: tombstones the settles below it. */
    void watermarkCommitted(long offset) {
        settled.committed(offset);
    }

    /**
     * Publishes the store's dead letters the dead-letter topic does not hold yet; call it after
     * {@link #watermark()} and before committing what it returned.
     *
     * @throws DeadLetterPublishException when Kafka did not acknowledge one (do not commit)
     */
    void shipDeadLetters() {
        List<SettleRecord> dead = settled.takeDead();
        boolean shipped = false;
        try {
            shipper.catchUp();
            shipped = true;
        } finally {
            if (shipped) {
                // Every dead settle taken was in the store before the catch-up: its letter is in the topic now.
                settled.releaseDead(dead);
            } else {
                settled.holdDead(dead);
            }
        }
    }

    DeadLetterShipper deadLetters() {
        return shipper;
    }

    /** Stops dispatch: waits up to the sink deadline for the deliveries under way. */
    void stopDispatch() {
        pipeline.close();
    }

    @Override
    public void close() {
        pipeline.close();
        queue.close();
    }
}

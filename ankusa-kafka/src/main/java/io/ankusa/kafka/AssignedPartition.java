package io.ankusa.kafka;

import io.ankusa.api.AnkusaException;
import io.ankusa.api.Hook;
import io.ankusa.api.IntakePosition;
import io.ankusa.api.InvalidHookException;
import io.ankusa.api.QueueConfig;
import io.ankusa.api.QueueStats;
import io.ankusa.api.Receipt;
import io.ankusa.api.TenantErasingException;
import io.ankusa.api.TenantLimitException;
import io.ankusa.api.TenantOverloadedException;
import io.ankusa.api.events.DeliverySettled;
import io.ankusa.api.events.QueueListener;
import io.ankusa.dispatch.Pipeline;
import io.ankusa.dispatch.Sink;
import io.ankusa.queue.Queue;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.function.UnaryOperator;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One assigned partition on a node: its store ({@code <root>/<topic>-<partition>}), its pipeline,
 * and its {@link Watermark}. Records are ingested with their offsets as intake positions, so a
 * record lands in the store with its position in one synced batch; a record the queue refuses for
 * good (it does not decode, or is invalid, over the tenant limit, refused by admission, or its
 * tenant is being erased) is published to the refused topic with the reason, never dropped.
 * A failure that is not a refusal (the store, the writer) stops the partition: it is paused, its
 * watermark stays below the record, and a restart resumes from the store.
 */
final class AssignedPartition implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(AssignedPartition.class);

    private final TopicPartition partition;
    private final String source;
    private final Queue queue;
    private final Pipeline pipeline;
    private final Watermark watermark;
    private final long resumeAt;
    private final Duration ingestWait;
    private long dropsSeen;
    private volatile boolean failed;

    private AssignedPartition(TopicPartition partition, Queue queue, Pipeline.Builder pipeline, Watermark watermark,
            long resumeAt, Duration ingestWait, Settles settles) {
        this.partition = partition;
        this.source = source(partition);
        this.queue = queue;
        this.watermark = watermark;
        this.resumeAt = resumeAt;
        this.ingestWait = ingestWait;
        settles.watermark = watermark;
        this.pipeline = pipeline.build();
    }

    static String source(TopicPartition partition) {
        return partition.topic() + "-" + partition.partition();
    }

    /**
     * Opens (or creates) the partition's store and builds its pipeline (not started). Reading resumes
     * after the store's intake position, or at Kafka's committed offset when that is further (another
     * node took the partition further since this store last saw it) or the store has none.
     */
    static AssignedPartition open(TopicPartition partition, Path root, UnaryOperator<QueueConfig.Builder> queueConfig,
            Sink sink, UnaryOperator<Pipeline.Builder> pipelineConfig, OptionalLong committed, Duration ingestWait) {
        Path directory = root.resolve(source(partition));
        Queue queue = Queue.open(queueConfig.apply(QueueConfig.builder(directory)).build());
        try {
            OptionalLong position = queue.intakePosition(source(partition));
            long fromStore = position.isPresent() ? position.getAsLong() + 1 : 0;
            long resumeAt = Math.max(fromStore, committed.orElse(0));
            QueueStats stats = queue.stats();
            long owedRows = stats.pending() + stats.scheduled() + stats.inflight();
            Watermark watermark = new Watermark(resumeAt, committed.orElse(resumeAt), owedRows);
            Settles settles = new Settles();
            Pipeline.Builder builder = pipelineConfig.apply(Pipeline.builder(queue, sink)).listener(settles);
            return new AssignedPartition(partition, queue, builder, watermark, resumeAt, ingestWait, settles);
        } catch (RuntimeException e) {
            queue.close();
            throw e;
        }
    }

    /** Forwards the pipeline's final settles to the watermark. */
    private static final class Settles implements QueueListener {
        private volatile Watermark watermark;

        @Override
        public void onSettled(DeliverySettled event) {
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
     * the store (or refused and published aside). Returns false when the partition failed.
     */
    boolean ingest(List<ConsumerRecord<String, byte[]>> records, Producer<String, byte[]> refusedProducer,
            String refusedTopic) {
        if (failed) {
            return false;
        }
        List<ConsumerRecord<String, byte[]>> submitted = new ArrayList<>(records.size());
        List<CompletableFuture<Receipt>> receipts = new ArrayList<>(records.size());
        List<Integer> sinks = new ArrayList<>(records.size());
        List<Refusal> refusals = new ArrayList<>();
        for (ConsumerRecord<String, byte[]> record : records) {
            if (record.offset() < resumeAt) {
                watermark.skipped(record.offset());
                continue; // already in the store (a seek that went back)
            }
            Hook hook;
            try {
                hook = HookRecord.decode(record.value());
            } catch (RuntimeException e) {
                // Not a hook record, or a hook that breaks the input rules: refused, never dropped.
                watermark.submitted(record.offset());
                refusals.add(new Refusal(record, e instanceof AnkusaException refusal ? refusal.error() : "undecodable",
                        String.valueOf(e.getMessage())));
                continue;
            }
            watermark.submitted(record.offset());
            submitted.add(record);
            sinks.add(hook.sinks().size());
            receipts.add(queue.ingest(hook, new IntakePosition(source, record.offset()), ingestWait));
        }
        for (int i = 0; i < receipts.size(); i++) {
            ConsumerRecord<String, byte[]> record = submitted.get(i);
            try {
                Receipt receipt = receipts.get(i).join();
                watermark.accepted(record.offset(), receipt.seq(), sinks.get(i));
            } catch (CompletionException e) {
                Throwable cause = e.getCause();
                if (cause instanceof InvalidHookException || cause instanceof TenantLimitException
                        || cause instanceof TenantOverloadedException || cause instanceof TenantErasingException) {
                    refusals.add(new Refusal(record, ((AnkusaException) cause).error(),
                            String.valueOf(cause.getMessage())));
                } else if (!failed) {
                    failed = true;
                    LOG.error("partition {} stopped at offset {}: its queue failed to ingest; it stays paused and "
                            + "its watermark below the record until the node restarts", partition, record.offset(), cause);
                }
            }
        }
        for (Refusal refusal : refusals) {
            publishRefused(refusal, refusedProducer, refusedTopic);
        }
        return !failed;
    }

    private record Refusal(ConsumerRecord<String, byte[]> record, String error, String message) {
    }

    private void publishRefused(Refusal refusal, Producer<String, byte[]> producer, String topic) {
        ProducerRecord<String, byte[]> aside = new ProducerRecord<>(topic, refusal.record().key(), refusal.record().value());
        aside.headers().add("ankusa-error", refusal.error().getBytes(StandardCharsets.UTF_8));
        aside.headers().add("ankusa-reason", refusal.message().getBytes(StandardCharsets.UTF_8));
        aside.headers().add("ankusa-source", (source + "@" + refusal.record().offset()).getBytes(StandardCharsets.UTF_8));
        try {
            producer.send(aside).get();
            watermark.handled(refusal.record().offset());
            LOG.warn("record {}@{} refused ({}: {}); published to {}", source, refusal.record().offset(), refusal.error(),
                    refusal.message(), topic);
        } catch (ExecutionException | RuntimeException e) {
            failed = true;
            LOG.error("partition {} stopped: the refused record at offset {} could not be published to {}", partition,
                    refusal.record().offset(), topic, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            failed = true;
        }
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
        return watermark.watermark();
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

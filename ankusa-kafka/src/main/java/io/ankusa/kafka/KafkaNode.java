package io.ankusa.kafka;

import io.ankusa.api.PurgeResult;
import io.ankusa.api.QueueConfig;
import io.ankusa.dispatch.Pipeline;
import io.ankusa.dispatch.ReplayResult;
import io.ankusa.dispatch.Replayer;
import io.ankusa.dispatch.sink.Sink;
import io.ankusa.queue.Queue;
import io.opentelemetry.api.OpenTelemetry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.CooperativeStickyAssignor;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A node of a Kafka deployment: joins the intake topic's consumer group (classic protocol,
 * cooperative sticky assignment, manual commits) and, for each partition it is assigned, opens a
 * local queue store {@code <root>/<topic>-<partition>} and a pipeline over it.
 *
 * <p>What it guarantees, and why:
 * <ul>
 * <li><b>Each record is ingested into a store once.</b> A record is ingested with its offset as the
 *     {@linkplain io.ankusa.api.IntakePosition intake position}, written in the same synced batch as
 *     the hook; on assign the node resumes after the store's position (or at Kafka's committed
 *     offset when that is further, or the store is new). A crash loses the batch and its position
 *     together.</li>
 * <li><b>Kafka's committed offset is the low watermark</b>: the first offset whose hook may still
 *     owe a delivery in the store ({@link Watermark}). A node that takes a partition over without
 *     its store starts there: hooks the lost node settled after it are delivered again
 *     (at-least-once; receivers dedupe on {@code webhook-id}).</li>
 * <li><b>Revoke stops dispatch before anyone else starts.</b> With cooperative rebalancing a
 *     revoked partition is handed to another member only in a later rebalance, after this node's
 *     {@code onPartitionsRevoked} returned; there the node closes the partition's pipeline (waiting
 *     up to its sink deadline for deliveries under way), commits the watermark and closes the store.
 *     Commits carry the group generation; a fenced member's commit is refused by the coordinator,
 *     and {@code onPartitionsLost} closes its partitions without committing.</li>
 * <li><b>A stalled node fences itself.</b> A node that stops polling (a long pause, a stuck poll
 *     loop) may lose its partitions after {@code session.timeout.ms} without being told in time.
 *     So its pipelines claim nothing once {@link Builder#fencingBound} (below the session timeout,
 *     default two thirds of it) has passed since its last completed poll: every tick reads that
 *     from the monotonic clock ({@code Pipeline.Builder.claimGate}), and a watchdog thread marks
 *     the node {@linkplain #fenced() fenced} and logs it. Attempts under way finish. After the next
 *     completed poll the node commits its watermarks; when the coordinator takes the commit (the
 *     node is still a member of its generation) dispatch resumes, otherwise the node stays fenced
 *     until {@code onPartitionsLost} closes the partitions (docs/scale-out.md, "A stalled node fences
 *     itself").</li>
 * <li><b>Dead letters survive the loss of a node.</b> Before each watermark commit the node
 *     publishes the partition's new dead letters to a compacted topic ({@code <topic>.dead},
 *     {@link Builder#deadLetterTopic}); a node that opens a partition's store new restores them
 *     from it. Replay or purge them through {@link #replayDeadLetters}, {@link #replayDeadLetter}
 *     and {@link #purgeDeadLetters}, which tombstone them in the topic.</li>
 * <li><b>What settled is not delivered again by a node that takes over.</b> Every delivered or dead
 *     (hook, sink) is published to a compacted topic ({@code <topic>.settled},
 *     {@link Builder#settleTopic}) every {@link Builder#settlePublishInterval}, and a watermark commit
 *     never passes a hook whose settles Kafka has not acknowledged. A node that opens a partition's
 *     store new skips at intake every (hook, sink) the topic names; a commit tombstones the records
 *     below it. The duplicate window of a takeover is the settles not yet acknowledged, whatever any
 *     endpoint does.</li>
 * </ul>
 *
 * <p>One thread of its own polls, ingests and commits (every {@link Builder#commitInterval}); each
 * partition's pipeline dispatches on its own threads.
 */
public final class KafkaNode implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(KafkaNode.class);
    /** Kafka's default {@code session.timeout.ms}. */
    private static final long KAFKA_SESSION_TIMEOUT_MS = 45_000;
    /** The watchdog looks at the fence this many times per bound. */
    private static final long WATCHES_PER_BOUND = 10;
    /** The watchdog looks at most once a millisecond. */
    private static final long MIN_WATCH_NANOS = 1_000_000L;

    private final Builder config;
    private final KafkaConsumer<String, byte[]> consumer;
    private final KafkaProducer<String, byte[]> producer;
    /** Reads the dead-letter topic's partitions on assign (no group; the poll thread's). */
    private final KafkaConsumer<String, byte[]> deadReader;
    private final Map<TopicPartition, AssignedPartition> assigned = new ConcurrentHashMap<>();
    private final Map<TopicPartition, Long> committed = new ConcurrentHashMap<>();
    private final Thread thread;
    private final Fence fence;
    private final Duration fencingBound;
    private final long sessionTimeoutMs;
    /** Runs {@link #watch()}: the fence's check, independent of the poll loop. */
    private final ScheduledExecutorService watchdog;
    /** Publishes every partition's queued settles each publish interval. */
    private final ScheduledExecutorService publisher;
    /** This node's identity, kept in {@code <root>/node.id}: whose commit a committed offset is. */
    private final String nodeId;
    private volatile boolean running = true;
    private volatile RuntimeException died;

    private KafkaNode(Builder config, Duration fencingBound, long sessionTimeoutMs) {
        this.config = config;
        this.fencingBound = fencingBound;
        this.sessionTimeoutMs = sessionTimeoutMs;
        this.fence = new Fence(fencingBound, System::nanoTime);
        this.watchdog = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "ankusa-kafka-fence");
            t.setDaemon(true);
            return t;
        });
        this.publisher = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "ankusa-kafka-settles");
            t.setDaemon(true);
            return t;
        });
        Map<String, Object> consumerConfig = new HashMap<>(config.properties);
        consumerConfig.put(ConsumerConfig.GROUP_ID_CONFIG, config.groupId);
        consumerConfig.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        consumerConfig.putIfAbsent(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        consumerConfig.put(ConsumerConfig.GROUP_PROTOCOL_CONFIG, "classic");
        consumerConfig.put(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG,
                CooperativeStickyAssignor.class.getName());
        consumerConfig.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        consumerConfig.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        consumerConfig.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        this.consumer = new KafkaConsumer<>(consumerConfig);
        Map<String, Object> producerConfig = new HashMap<>();
        producerConfig.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                config.properties.get(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG));
        config.properties.forEach((name, value) -> {
            if (name.startsWith("security.") || name.startsWith("sasl.") || name.startsWith("ssl.")) {
                producerConfig.put(name, value);
            }
        });
        producerConfig.put(ProducerConfig.ACKS_CONFIG, "all");
        producerConfig.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        producerConfig.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        producerConfig.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        this.producer = new KafkaProducer<>(producerConfig);
        Map<String, Object> readerConfig = new HashMap<>(config.properties);
        readerConfig.remove(ConsumerConfig.GROUP_ID_CONFIG);
        readerConfig.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        readerConfig.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        readerConfig.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        this.deadReader = new KafkaConsumer<>(readerConfig);
        this.thread = new Thread(this::run, "ankusa-kafka-node");
        this.nodeId = NodeId.of(config.root);
    }

    /**
     * A builder for a node of consumer group {@code groupId} reading {@code topic}, keeping its
     * partition stores under {@code root} and delivering through {@code sink}.
     *
     * @param bootstrapServers Kafka's {@code bootstrap.servers}
     * @param topic            the intake topic
     * @param groupId          the consumer group the nodes share
     * @param root             the directory holding one store per assigned partition
     * @param sink             where every partition's pipeline delivers
     * @return a builder with the defaults
     */
    public static Builder builder(String bootstrapServers, String topic, String groupId, Path root, Sink sink) {
        return new Builder(bootstrapServers, topic, groupId, root, sink);
    }

    /**
     * Joins the group and starts polling on the node's thread; returns this.
     *
     * @return this node, running
     */
    public KafkaNode start() {
        fence.renew();
        long every = Math.max(MIN_WATCH_NANOS, fencingBound.toNanos() / WATCHES_PER_BOUND);
        watchdog.scheduleAtFixedRate(this::watch, every, every, TimeUnit.NANOSECONDS);
        long publish = config.settlePublishInterval.toNanos();
        publisher.scheduleAtFixedRate(this::publishSettles, publish, publish, TimeUnit.NANOSECONDS);
        thread.start();
        return this;
    }

    /**
     * Whether the node holds back dispatch from all its partitions because its poll loop has not
     * completed a poll within {@link Builder#fencingBound}, or has not yet confirmed since then that
     * the group still counts it as a member (see the class comment). Attempts started before go on
     * until they settle.
     *
     * @return whether the node is fenced now
     */
    public boolean fenced() {
        return fence.fenced();
    }

    /**
     * How long ago the poll loop last completed a poll (the node's thread, before it started: since
     * {@link #start()}).
     *
     * @return the time since the last completed poll, on the monotonic clock
     */
    public Duration sinceLastPoll() {
        return fence.sinceRenewed();
    }

    /**
     * The partitions this node holds now, with their queue and pipeline for gauges.
     *
     * @return a snapshot, by partition number
     */
    public List<KafkaPartition> partitions() {
        List<KafkaPartition> list = new ArrayList<>();
        assigned.forEach((tp, p) -> list.add(new KafkaPartition(tp.topic(), tp.partition(), p.queue(), p.pipeline(),
                committed.getOrDefault(tp, -1L), p.failed())));
        list.sort((a, b) -> Integer.compare(a.partition(), b.partition()));
        return list;
    }

    /**
     * Whether the node's thread stopped because of an error (it then holds no partition).
     *
     * @return whether it died
     */
    public boolean died() {
        return died != null;
    }

    private void run() {
        try {
            consumer.subscribe(List.of(config.topic), new Rebalance());
            long lastCommit = System.nanoTime();
            while (running) {
                ConsumerRecords<String, byte[]> records;
                try {
                    records = consumer.poll(config.pollTimeout);
                } catch (WakeupException e) {
                    continue;
                }
                polled();
                for (TopicPartition tp : records.partitions()) {
                    AssignedPartition partition = assigned.get(tp);
                    if (partition == null) {
                        continue;
                    }
                    long next = partition.ingest(records.records(tp), producer, config.refusedTopic);
                    if (next == AssignedPartition.FAILED) {
                        consumer.pause(List.of(tp));
                    } else if (next >= 0) {
                        consumer.seek(tp, next); // a store commit failed: read again from the first failed record
                    }
                }
                if (System.nanoTime() - lastCommit >= config.commitInterval.toNanos()) {
                    commit(assigned.keySet());
                    lastCommit = System.nanoTime();
                }
            }
            drainSettles(assigned.keySet());
            commit(assigned.keySet());
            closeAll(new ArrayList<>(assigned.keySet()));
        } catch (RuntimeException e) {
            died = e;
            LOG.error("kafka node stopped", e);
            closeAll(new ArrayList<>(assigned.keySet()));
        } finally {
            watchdog.shutdownNow();
            publisher.shutdownNow();
            try {
                consumer.close(org.apache.kafka.clients.consumer.CloseOptions.timeout(Duration.ofSeconds(30)));
            } catch (RuntimeException e) {
                LOG.warn("closing the consumer failed", e);
            }
            producer.close(Duration.ofSeconds(30));
            deadReader.close(org.apache.kafka.clients.consumer.CloseOptions.timeout(Duration.ofSeconds(5)));
        }
    }

    /**
     * The poll loop completed a poll (its rebalance callbacks ran in it): renews the fence, after
     * fencing first when the bound passed since the last poll (the watchdog may not have run yet,
     * as after a pause of the whole process); a fenced node then confirms its ownership.
     */
    private void polled() {
        fenceIfExpired();
        fence.renew();
        if (fence.held()) {
            confirmOwnership();
        }
    }

    /** The publisher's round: sends every partition's queued settles. */
    private void publishSettles() {
        for (AssignedPartition partition : assigned.values()) {
            try {
                partition.publishSettles();
            } catch (RuntimeException e) {
                LOG.warn("publishing the settles of {} failed; they are sent again next round", partition.partition(),
                        e);
            }
        }
    }

    /**
     * Before a final commit (revoke, close): publishes the partitions' dead letters and settles and
     * waits until Kafka answered, so the commit can pass them.
     */
    private void drainSettles(Collection<TopicPartition> partitions) {
        for (TopicPartition tp : partitions) {
            AssignedPartition partition = assigned.get(tp);
            if (partition == null) {
                continue;
            }
            try {
                partition.shipDeadLetters();
                partition.publishSettles();
            } catch (RuntimeException e) {
                LOG.warn("the settles of {} are not all published; its watermark stays below them", tp, e);
            }
        }
        try {
            producer.flush();
        } catch (RuntimeException e) {
            LOG.warn("flushing the settles failed", e);
        }
    }

    /** The watchdog's round: fences a node that holds partitions and has not polled within the bound. */
    private void watch() {
        try {
            fenceIfExpired();
        } catch (RuntimeException e) {
            LOG.error("the fencing watchdog failed a round", e);
        }
    }

    /** Fences a node that holds partitions once the bound has passed since its last poll, and says so. */
    private void fenceIfExpired() {
        if (assigned.isEmpty()) {
            return;
        }
        long sinceNanos = fence.check();
        if (sinceNanos == Fence.NOT_FENCED) {
            return;
        }
        LOG.warn("kafka node fenced: no poll completed for {} ms (fencing bound {} ms, session.timeout.ms {} ms); "
                + "partitions {} start no delivery until a poll confirms the node still owns them",
                TimeUnit.NANOSECONDS.toMillis(sinceNanos), fencingBound.toMillis(),
                sessionTimeoutMs, assigned.keySet());
    }

    /**
     * After a completed poll, on a fenced node: commits the watermark of every partition it holds,
     * and lifts the fence when the coordinator takes the commit (the commit carries the node's
     * generation and member id, so it is refused once the group has moved on without it). A
     * refused commit leaves the node fenced; the consumer then rejoins and
     * {@code onPartitionsLost} closes what it lost.
     */
    private void confirmOwnership() {
        List<TopicPartition> held = new ArrayList<>(assigned.keySet());
        if (held.isEmpty()) {
            if (fence.lift()) {
                LOG.info("kafka node no longer fenced: it holds no partition");
            }
            return;
        }
        if (commit(held, true) && fence.lift()) {
            LOG.info("kafka node resumes dispatch: a poll completed and the group took its commit for {}", held);
        }
    }

    /** Commits the watermarks of {@code partitions}, with the group generation in the metadata. */
    private void commit(Collection<TopicPartition> partitions) {
        commit(partitions, false);
    }

    /**
     * Commits the watermarks of {@code partitions} that moved since the last commit ({@code all}:
     * every one, to confirm the node's membership), with the group generation in the metadata.
     *
     * @return whether the coordinator took a commit ({@code all}: one was sent and taken)
     */
    private boolean commit(Collection<TopicPartition> partitions, boolean all) {
        Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
        int generation = consumer.groupMetadata().generationId();
        for (TopicPartition tp : partitions) {
            AssignedPartition partition = assigned.get(tp);
            if (partition != null) {
                long watermark = partition.watermark();
                try {
                    // Every dead settle the watermark counted is in the store now: publish before committing.
                    partition.shipDeadLetters();
                } catch (DeadLetterPublishException e) {
                    LOG.warn("watermark of {} not committed: its dead letters are not all published", tp, e);
                    continue;
                }
                if (all || committed.getOrDefault(tp, -1L) != watermark) {
                    offsets.put(tp, new OffsetAndMetadata(watermark, "ankusa generation=" + generation + " node="
                            + nodeId));
                }
            }
        }
        if (offsets.isEmpty()) {
            return !all;
        }
        try {
            if (all) {
                consumer.commitSync(offsets, fencingBound);
            } else {
                consumer.commitSync(offsets);
            }
            offsets.forEach((tp, offset) -> {
                committed.put(tp, offset.offset());
                AssignedPartition partition = assigned.get(tp);
                if (partition != null) {
                    partition.watermarkCommitted(offset.offset()); // tombstones the settles below it
                }
            });
            return true;
        } catch (KafkaException e) {
            // A fenced member (a newer generation owns the partitions) is refused: onPartitionsLost follows.
            LOG.warn("watermark commit refused for {}", offsets.keySet(), e);
            return false;
        }
    }

    private void closeAll(Collection<TopicPartition> partitions) {
        for (TopicPartition tp : partitions) {
            AssignedPartition partition = assigned.remove(tp);
            if (partition != null) {
                try {
                    partition.close();
                } catch (RuntimeException e) {
                    LOG.error("closing partition {} failed", tp, e);
                }
            }
            committed.remove(tp);
        }
    }

    /**
     * The latest record per key of the dead-letter topic's partition {@code partition}, read from
     * its beginning to its end as of now (tombstoned keys left out).
     */
    private Map<String, DeadLetterRecord> readDeadLetters(int partition) {
        TopicPartition dead = new TopicPartition(config.deadLetterTopic, partition);
        requirePartition("dead-letter", config.deadLetterTopic, partition);
        deadReader.assign(List.of(dead));
        deadReader.seekToBeginning(List.of(dead));
        long end = deadReader.endOffsets(List.of(dead)).get(dead);
        Map<String, DeadLetterRecord> records = new HashMap<>();
        while (deadReader.position(dead) < end) {
            for (ConsumerRecord<String, byte[]> record : deadReader.poll(config.pollTimeout).records(dead)) {
                if (record.value() == null) {
                    records.remove(record.key());
                } else {
                    records.put(record.key(), DeadLetterRecord.decode(record.value(), record.headers()));
                }
            }
        }
        deadReader.assign(List.of());
        return records;
    }

    private void requirePartition(String what, String topic, int partition) {
        List<org.apache.kafka.common.PartitionInfo> partitions = deadReader.partitionsFor(topic);
        if (partitions == null || partitions.stream().noneMatch(p -> p.partition() == partition)) {
            throw new IllegalStateException(what + " topic " + topic + " has no partition " + partition
                    + ": create it compacted, with as many partitions as " + config.topic);
        }
    }

    /**
     * The latest record per key of the settles topic's partition {@code partition}, read from its
     * beginning to its end as of now (tombstoned keys left out; a record that does not decode is
     * logged and left out: its delivery is read again).
     */
    private List<SettleRecord> readSettles(int partition) {
        TopicPartition settles = new TopicPartition(config.settleTopic, partition);
        requirePartition("settles", config.settleTopic, partition);
        deadReader.assign(List.of(settles));
        deadReader.seekToBeginning(List.of(settles));
        long end = deadReader.endOffsets(List.of(settles)).get(settles);
        Map<String, SettleRecord> records = new HashMap<>();
        while (deadReader.position(settles) < end) {
            for (ConsumerRecord<String, byte[]> record : deadReader.poll(config.pollTimeout).records(settles)) {
                if (record.value() == null) {
                    records.remove(record.key());
                    continue;
                }
                try {
                    records.put(record.key(), SettleRecord.decode(record.key(), record.value()));
                } catch (IllegalArgumentException e) {
                    records.remove(record.key());
                    LOG.warn("settle record {}@{} of {} does not decode: left out", partition, record.offset(),
                            config.settleTopic, e);
                }
            }
        }
        deadReader.assign(List.of());
        return new ArrayList<>(records.values());
    }

    /**
     * Replays {@code tenant}'s dead letters in the store of partition {@code partition} (as
     * {@link Replayer#replayTenant}), then publishes a tombstone to the dead-letter topic for each
     * letter it revived. The node must hold the partition.
     *
     * @param partition the intake partition whose store holds the tenant (see {@link #partitions()})
     * @param tenant    the tenant whose dead letters to revive
     * @return how many dead rows became due again, and how many were skipped and why
     * @throws IllegalStateException      when the node does not hold the partition
     * @throws DeadLetterPublishException when a tombstone was not acknowledged (the letters are revived;
     *                                    the topic may still list them until the next replay or purge)
     */
    public ReplayResult replayDeadLetters(int partition, String tenant) {
        return held(partition).deadLetters().replayTenant(tenant);
    }

    /**
     * Replays {@code tenant}'s dead letters of hook {@code hookId} in the store of partition
     * {@code partition} (as {@link Replayer#replayHook}), then tombstones them in the dead-letter
     * topic. The node must hold the partition.
     *
     * @param partition the intake partition whose store holds the tenant
     * @param tenant    the tenant the hook belongs to
     * @param hookId    the hook's id
     * @return how many dead rows became due again, and how many were skipped and why
     * @throws IllegalStateException      when the node does not hold the partition
     * @throws DeadLetterPublishException when a tombstone was not acknowledged
     */
    public ReplayResult replayDeadLetter(int partition, String tenant, String hookId) {
        return held(partition).deadLetters().replayHook(tenant, hookId);
    }

    /**
     * Purges {@code tenant}'s dead letters from the store of partition {@code partition} (as
     * {@code Queue.purgeTenant(tenant, Set.of(PurgeKind.DEAD))}), then tombstones them in the
     * dead-letter topic. The node must hold the partition.
     *
     * @param partition the intake partition whose store holds the tenant
     * @param tenant    the tenant whose dead letters to remove
     * @return how many rows, bytes and hooks were removed
     * @throws IllegalStateException      when the node does not hold the partition
     * @throws DeadLetterPublishException when a tombstone was not acknowledged
     */
    public PurgeResult purgeDeadLetters(int partition, String tenant) {
        return held(partition).deadLetters().purgeTenant(tenant);
    }

    private AssignedPartition held(int partition) {
        AssignedPartition held = assigned.get(new TopicPartition(config.topic, partition));
        if (held == null) {
            throw new IllegalStateException("this node does not hold partition " + partition + " of " + config.topic);
        }
        return held;
    }

    private final class Rebalance implements ConsumerRebalanceListener {

        @Override
        public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
            // Stop dispatch first, so that the watermark committed below counts the last settles.
            for (TopicPartition tp : partitions) {
                AssignedPartition partition = assigned.get(tp);
                if (partition != null) {
                    partition.stopDispatch();
                }
            }
            drainSettles(partitions);
            commit(partitions);
            closeAll(partitions);
            LOG.info("partitions revoked: {}", partitions);
        }

        @Override
        public void onPartitionsLost(Collection<TopicPartition> partitions) {
            // Another member may own them already: stop at once, commit nothing.
            closeAll(partitions);
            LOG.warn("partitions lost (fenced): {}", partitions);
        }

        @Override
        public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
            if (partitions.isEmpty()) {
                return;
            }
            Map<TopicPartition, OffsetAndMetadata> offsets = consumer.committed(new HashSet<>(partitions));
            for (TopicPartition tp : partitions) {
                OffsetAndMetadata offset = offsets.get(tp);
                OptionalLong committedOffset = offset == null ? OptionalLong.empty() : OptionalLong.of(offset.offset());
                // Another node committed last: it owned the partition since this node's store last saw it.
                boolean another = offset != null && NodeId.committedByAnother(offset.metadata(), nodeId);
                AssignedPartition.DeadLetters deadLetters = new AssignedPartition.DeadLetters(config.deadLetterTopic,
                        tp.partition(), readDeadLetters(tp.partition()), producer);
                AssignedPartition.SettledTopic settled = new AssignedPartition.SettledTopic(config.settleTopic,
                        tp.partition(), readSettles(tp.partition()), producer);
                AssignedPartition partition =
                        AssignedPartition.open(tp, config.root, config.queueConfig, config.opener(), config.sink,
                        config.tracedPipelineConfig(fence), committedOffset, config.ingestWait, deadLetters, settled,
                        another);
                assigned.put(tp, partition);
                if (!another) {
                    committedOffset.ifPresent(o -> committed.put(tp, o));
                } // else commit at the first interval even if the watermark has not moved: the commit names this node
                consumer.seek(tp, partition.resumeAt());
                partition.startDispatch();
            }
            // The group just gave these partitions to this node: the bound counts from here, not from
            // the poll before a join that may have taken a while.
            fence.renew();
            LOG.info("partitions assigned: {}", partitions);
        }
    }

    /**
     * Stops polling, stops every partition's dispatch (waiting up to the sink deadline), commits
     * the watermarks, closes the stores and leaves the group. Idempotent.
     */
    @Override
    public void close() {
        running = false;
        watchdog.shutdownNow();
        consumer.wakeup();
        try {
            if (thread.isAlive()) {
                thread.join();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Configures a {@link KafkaNode}. */
    public static final class Builder {

        private final Map<String, Object> properties = new HashMap<>();
        private final String topic;
        private final String groupId;
        private final Path root;
        private final Sink sink;
        private String refusedTopic;
        private String deadLetterTopic;
        private String settleTopic;
        private Duration settlePublishInterval = Duration.ofMillis(100);
        private UnaryOperator<QueueConfig.Builder> queueConfig = b -> b;
        private Function<QueueConfig, Queue> opener;
        private UnaryOperator<Pipeline.Builder> pipelineConfig = b -> b;
        private OpenTelemetry openTelemetry = OpenTelemetry.noop();
        private Duration pollTimeout = Duration.ofMillis(200);
        private Duration commitInterval = Duration.ofSeconds(1);
        private Duration ingestWait = Duration.ofSeconds(30);
        /** Null until set: two thirds of {@code session.timeout.ms}. */
        private Duration fencingBound;

        private Builder(String bootstrapServers, String topic, String groupId, Path root, Sink sink) {
            properties.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                    Objects.requireNonNull(bootstrapServers, "bootstrapServers"));
            this.topic = Objects.requireNonNull(topic, "topic");
            this.groupId = Objects.requireNonNull(groupId, "groupId");
            this.root = Objects.requireNonNull(root, "root");
            this.sink = Objects.requireNonNull(sink, "sink");
            this.refusedTopic = topic + ".refused";
            this.deadLetterTopic = topic + ".dead";
            this.settleTopic = topic + ".settled";
        }

        /**
         * Configures each partition's queue: the builder comes with the partition's directory set;
         * choose the backend and limits here. Keep tenant ingest limits off (the default policy):
         * a hook refused by them is published to the refused topic, not retried.
         *
         * @param tweak changes to the queue's defaults
         * @return this builder
         */
        public Builder queueConfig(UnaryOperator<QueueConfig.Builder> tweak) {
            this.queueConfig = Objects.requireNonNull(tweak, "tweak");
            return this;
        }

        /**
         * The OpenTelemetry each partition's queue and pipeline trace with (default
         * {@link OpenTelemetry#noop()}): the queue opens with {@code Queue.open(config, openTelemetry)}
         * unless a {@link #queueOpener} is set (then the opener chooses), and each pipeline gets
         * {@code Pipeline.Builder.openTelemetry} before {@link #pipelineConfig}. A hook's trace context
         * arrives in the record headers that {@link KafkaIntake} writes, so the ingest and attempt spans
         * here continue the producer's trace.
         *
         * @param openTelemetry the application's OpenTelemetry
         * @return this builder
         */
        public Builder openTelemetry(OpenTelemetry openTelemetry) {
            this.openTelemetry = Objects.requireNonNull(openTelemetry, "openTelemetry");
            return this;
        }

        /** The queue opener: the one set, else {@code Queue.open} with the node's OpenTelemetry. */
        private Function<QueueConfig, Queue> opener() {
            if (opener != null) {
                return opener;
            }
            OpenTelemetry otel = openTelemetry;
            return c -> Queue.open(c, otel);
        }

        /** The pipeline tweak after the node's OpenTelemetry, and the node's fence as its claim gate. */
        private UnaryOperator<Pipeline.Builder> tracedPipelineConfig(Fence fence) {
            OpenTelemetry otel = openTelemetry;
            UnaryOperator<Pipeline.Builder> tweak = pipelineConfig;
            return b -> tweak.apply(b.openTelemetry(otel)).claimGate(fence::open);
        }

        /**
         * Opens each partition's queue from its configuration (default {@code Queue.open} with the
         * {@link #openTelemetry}): to
         * open it with a decorated store (fault injection in tests) or to observe each open. The
         * node closes what it returns.
         *
         * @param opener opens a queue; it must honour the configuration's directory
         * @return this builder
         */
        public Builder queueOpener(Function<QueueConfig, Queue> opener) {
            this.opener = Objects.requireNonNull(opener, "opener");
            return this;
        }

        /**
         * Configures each partition's pipeline (retry policy, concurrency, sink deadline, listeners).
         * The claim gate is the node's ({@link #fencingBound}) and cannot be changed here.
         *
         * @param tweak changes to the pipeline's defaults
         * @return this builder
         */
        public Builder pipelineConfig(UnaryOperator<Pipeline.Builder> tweak) {
            this.pipelineConfig = Objects.requireNonNull(tweak, "tweak");
            return this;
        }

        /**
         * Where records the queue refuses for good go, with the reason in headers (default
         * {@code <topic>.refused}).
         *
         * @param topic the refused topic
         * @return this builder
         */
        public Builder refusedTopic(String topic) {
            this.refusedTopic = Objects.requireNonNull(topic, "topic");
            return this;
        }

        /**
         * Where each partition's dead letters are published (default {@code <topic>.dead}): a
         * compacted topic with as many partitions as the intake topic, letter of intake partition
         * <i>p</i> in its partition <i>p</i>. A node that opens a partition's store new (or behind
         * the partition) restores the letters from it.
         *
         * @param topic the dead-letter topic
         * @return this builder
         */
        public Builder deadLetterTopic(String topic) {
            this.deadLetterTopic = Objects.requireNonNull(topic, "topic");
            return this;
        }

        /**
         * Where each partition's settles are published (default {@code <topic>.settled}): a compacted
         * topic with as many partitions as the intake topic, the settles of intake partition <i>p</i>
         * in its partition <i>p</i>, one record per (hook, sink) keyed by the hook's intake offset and
         * the sink. A node that opens a partition's store new (or behind the partition) skips at
         * intake every delivery the topic says was settled, and a watermark commit never passes a
         * settle Kafka has not acknowledged.
         *
         * @param topic the settles topic
         * @return this builder
         */
        public Builder settleTopic(String topic) {
            this.settleTopic = Objects.requireNonNull(topic, "topic");
            return this;
        }

        /**
         * How often the settles queued since the last publish are sent to the settles topic (default
         * 100 ms). A node that dies loses the settles not yet acknowledged: a node taking over
         * delivers those again, so this bounds a takeover's duplicates to about one interval of
         * settles, whatever any endpoint does. Shorter sends smaller batches more often.
         *
         * @param interval the publish interval, positive
         * @return this builder
         */
        public Builder settlePublishInterval(Duration interval) {
            if (interval.isNegative() || interval.isZero()) {
                throw new IllegalArgumentException("settle publish interval must be positive: " + interval);
            }
            this.settlePublishInterval = interval;
            return this;
        }

        /**
         * How often the watermarks are committed (default 1 s).
         *
         * @param interval the commit interval, positive
         * @return this builder
         */
        public Builder commitInterval(Duration interval) {
            if (interval.isNegative() || interval.isZero()) {
                throw new IllegalArgumentException("commit interval must be positive: " + interval);
            }
            this.commitInterval = interval;
            return this;
        }

        /**
         * How long after the last completed poll the node stops starting deliveries (see
         * {@link KafkaNode#fenced()}). It must be below the consumer's {@code session.timeout.ms}, so
         * that the node stops before the group can give its partitions to another member, and above
         * the poll loop's poll timeout (200 ms). Default: two thirds of {@code session.timeout.ms}
         * (Kafka's default session timeout, 45 s, gives 30 s). Leave room for the loop's longest
         * normal pause: a poll that runs a revoke waits up to the sink deadline for deliveries under
         * way, and an ingest waits up to the queue's ingest wait; a node that passes the bound that
         * way fences until its next poll confirms it.
         *
         * @param bound the fencing bound, positive
         * @return this builder
         */
        public Builder fencingBound(Duration bound) {
            Objects.requireNonNull(bound, "bound");
            if (bound.isNegative() || bound.isZero()) {
                throw new IllegalArgumentException("fencing bound must be positive: " + bound);
            }
            this.fencingBound = bound;
            return this;
        }

        /** The consumer's {@code session.timeout.ms}: the property set, else Kafka's default. */
        private long sessionTimeoutMs() {
            Object value = properties.get(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG);
            if (value == null) {
                return KAFKA_SESSION_TIMEOUT_MS;
            }
            try {
                return Long.parseLong(String.valueOf(value).trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("session.timeout.ms is not a number of milliseconds: " + value, e);
            }
        }

        /**
         * The fencing bound to build with: the one set, else two thirds of the session timeout.
         *
         * @throws IllegalArgumentException when it is not below {@code session.timeout.ms}, or not above the
         *                                  poll timeout
         */
        Duration checkedFencingBound() {
            long session = sessionTimeoutMs();
            Duration bound = fencingBound != null ? fencingBound : Duration.ofMillis(session * 2 / 3);
            if (bound.compareTo(Duration.ofMillis(session)) >= 0) {
                throw new IllegalArgumentException("fencing bound " + bound.toMillis() + " ms must be below "
                        + "session.timeout.ms " + session + " ms: the group may give the node's partitions away "
                        + "after the session timeout, and the node must have stopped dispatching by then");
            }
            if (bound.compareTo(pollTimeout) <= 0) {
                throw new IllegalArgumentException("fencing bound " + bound.toMillis() + " ms must be above the "
                        + "poll timeout " + pollTimeout.toMillis() + " ms (session.timeout.ms " + session + " ms)");
            }
            return bound;
        }

        /**
         * Sets a consumer property ({@code session.timeout.ms}, {@code max.poll.records}, security
         * settings, …). The group, the assignor, the protocol, manual commits and the deserializers
         * are the node's and cannot be changed; security settings are passed to the refused topic's
         * producer too.
         *
         * @param name  the consumer property
         * @param value its value
         * @return this builder
         */
        public Builder property(String name, Object value) {
            properties.put(Objects.requireNonNull(name, "name"), Objects.requireNonNull(value, "value"));
            return this;
        }

        /**
         * Builds the node (not started: {@link KafkaNode#start()}).
         *
         * @return the node
         * @throws IllegalArgumentException when the {@link #fencingBound} is not below {@code session.timeout.ms}
         *                                  (the message names both), or not above the poll timeout
         */
        public KafkaNode build() {
            return new KafkaNode(this, checkedFencingBound(), sessionTimeoutMs());
        }
    }
}

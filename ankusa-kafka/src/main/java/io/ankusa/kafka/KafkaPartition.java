package io.ankusa.kafka;

import io.ankusa.dispatch.Pipeline;
import io.ankusa.queue.Queue;

/**
 * One partition a {@link KafkaNode} holds now, for gauges: read its queue's counters
 * ({@code queue.stats()}, {@code pendingForTenant}) and its pipeline's gauges
 * ({@code pipeline.gauges()}) through the usual API. Both are closed when the partition is revoked.
 *
 * @param topic     the intake topic
 * @param partition the partition number
 * @param queue     the partition's queue (store {@code <root>/<topic>-<partition>})
 * @param pipeline  the partition's pipeline
 * @param watermark the offset last committed to Kafka for it (the low watermark), or -1 before the first commit
 * @param failed    whether the partition stopped because its queue failed to ingest (it is paused)
 */
public record KafkaPartition(String topic, int partition, Queue queue, Pipeline pipeline, long watermark,
        boolean failed) {
}

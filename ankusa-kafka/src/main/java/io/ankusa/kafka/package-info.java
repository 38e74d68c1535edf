/**
 * The Kafka intake ({@link io.ankusa.kafka.KafkaIntake}) and the partition-per-store node
 * ({@link io.ankusa.kafka.KafkaNode}); see docs/scale-out.md.
 */
package io.ankusa.kafka;

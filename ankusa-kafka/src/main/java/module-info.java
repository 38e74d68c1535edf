/**
 * Ankusa beyond one node, over Apache Kafka: {@link io.ankusa.kafka.KafkaIntake} publishes hooks to
 * an intake topic keyed by tenant, and {@link io.ankusa.kafka.KafkaNode} joins a consumer group and
 * keeps one embedded queue and pipeline per assigned partition, committing the partition's low
 * watermark. docs/scale-out.md describes the topology and its guarantees.
 */
// kafka-clients ships no descriptor (Automatic-Module-Name kafka.clients); its types stay out of our API
@SuppressWarnings("requires-automatic")
module io.ankusa.kafka {
    requires kafka.clients;
    requires org.slf4j;
    requires transitive io.ankusa.api;
    requires transitive io.ankusa.dispatch;
    requires transitive io.ankusa.queue;

    exports io.ankusa.kafka;
}

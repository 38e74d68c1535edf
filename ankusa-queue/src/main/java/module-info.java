/**
 * The Ankusa queue. Packages in the order data flows: {@code intake} (ingest writer, tenant
 * ordinals, dedupe) writes through {@code deliveries} (op builders, counters, codecs) into the
 * store; {@code ledger} is the dispatcher's port; {@code upkeep} reclaims, purges, audits;
 * {@code migration} guards and upgrades the store format; {@code engine} wires them; the API
 * package {@code io.ankusa.queue} sits on top.
 */
// "module": io.ankusa.dispatch, io.ankusa.cli and io.ankusa.kafka are compiled after this module.
// "requires-automatic", "requires-transitive-automatic": the OpenTelemetry API ships no descriptor
// (Automatic-Module-Name io.opentelemetry.api, io.opentelemetry.context); Queue.open names its
// OpenTelemetry type, so it is passed on.
@SuppressWarnings({"module", "requires-automatic", "requires-transitive-automatic"})
module io.ankusa.queue {
    requires io.ankusa.keys;
    requires org.slf4j;
    requires io.ankusa.store;

    requires transitive io.ankusa.api;
    requires transitive io.opentelemetry.api;
    requires transitive io.opentelemetry.context;

    exports io.ankusa.queue;
    // The dispatcher's port: decoded rows and transitions, never a key; ordinals and the audit hook.
    // The Kafka node reads dead letters' hooks and restores dead letters through it.
    exports io.ankusa.queue.ledger to io.ankusa.dispatch, io.ankusa.cli, io.ankusa.kafka;
    // The one admission step's parts: cached tenant policies and token buckets (the scheduler's).
    exports io.ankusa.queue.admission to io.ankusa.dispatch;
    // The bounded hand-off of events to listeners, which the pipeline publishes through too.
    exports io.ankusa.queue.events to io.ankusa.dispatch;
    // The one conversion between a stored trace context and OpenTelemetry's, for the attempt spans
    // and the Kafka intake.
    exports io.ankusa.queue.tracing to io.ankusa.dispatch, io.ankusa.kafka;
    // The test-fixture writer behind the CLI's fixture command.
    exports io.ankusa.queue.fixtures to io.ankusa.cli;
}

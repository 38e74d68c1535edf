/**
 * The Ankusa queue: format guard, tenant ordinals, the ingest writer, the Deliveries op builders
 * with their counters, reads, purge, archive obligations, and the delivery ledger the dispatcher
 * drives.
 */
@SuppressWarnings("module") // io.ankusa.dispatch is compiled after this module
module io.ankusa.queue {
    requires io.ankusa.keys;
    requires org.slf4j;

    requires transitive io.ankusa.api;
    requires transitive io.ankusa.store;

    exports io.ankusa.queue;
    // The dispatcher's port: decoded rows and transitions, never a key.
    exports io.ankusa.queue.ledger to io.ankusa.dispatch;
}

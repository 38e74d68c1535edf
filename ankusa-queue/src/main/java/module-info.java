/** The Ankusa queue: ingest writer, tenants, deliveries, counters, reads, purge, gauges and migrations. */
module io.ankusa.queue {
    requires io.ankusa.keys;
    requires org.slf4j;

    requires transitive io.ankusa.api;
    requires transitive io.ankusa.store;

    exports io.ankusa.queue;
}

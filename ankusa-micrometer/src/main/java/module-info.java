/**
 * Ankusa's Micrometer binding: {@link io.ankusa.micrometer.AnkusaMetrics}, a {@code MeterBinder}
 * that reads the node gauges from the queue's counters and counts and times what the queue and its
 * pipeline publish as events. docs/operations.md lists every meter.
 */
// micrometer-core ships no descriptor (Automatic-Module-Name micrometer.core); its MeterBinder is our API
@SuppressWarnings({"requires-automatic", "requires-transitive-automatic"})
module io.ankusa.micrometer {
    requires transitive io.ankusa.api;
    requires transitive io.ankusa.dispatch;
    requires transitive io.ankusa.queue;
    requires transitive micrometer.core;

    exports io.ankusa.micrometer;
}

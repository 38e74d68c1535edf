package io.ankusa.dispatch.report;

/**
 * Receives the gauges every gauge interval of a started {@link io.ankusa.dispatch.Pipeline}: the bridge to a metrics
 * library, which Ankusa does not depend on. Called on the pipeline's gauge thread; a listener
 * that throws is logged and called again next interval.
 */
@FunctionalInterface
public interface GaugeListener {

    /**
     * A new snapshot.
     *
     * @param gauges the gauges as measured just now
     */
    void onGauges(Gauges gauges);
}

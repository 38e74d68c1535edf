/**
 * The dispatcher's entry points: {@link io.ankusa.dispatch.Pipeline} (claims due deliveries tenant
 * by tenant and sends them to a sink), {@link io.ankusa.dispatch.Replayer} (revives dead letters)
 * with its results, and {@link io.ankusa.dispatch.QueueMonitor} (gauges without a pipeline).
 *
 * <p>What a sink author implements lives in {@link io.ankusa.dispatch.sink}; what a running
 * pipeline reports in {@link io.ankusa.dispatch.report}; the built-in HTTP sink in
 * {@link io.ankusa.dispatch.http}. The engine behind them is the unexported
 * {@code io.ankusa.dispatch.engine}.
 */
package io.ankusa.dispatch;

/**
 * The dispatcher's public entry points ({@link io.ankusa.dispatch.Pipeline}, sinks, retry policies,
 * the replayer, gauges) and, package-private, the pipeline behind them: the tick, per-tenant scan
 * cursors, sink attempts with bounded concurrency, the settler and the gauge reader.
 */
package io.ankusa.dispatch;

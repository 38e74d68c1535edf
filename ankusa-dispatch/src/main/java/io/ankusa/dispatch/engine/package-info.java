/**
 * The pipeline behind {@code io.ankusa.dispatch.Pipeline}, not exported. By stage, in the order a
 * delivery meets them:
 *
 * <ol>
 *   <li><b>Feed and scheduling</b>: {@link io.ankusa.dispatch.engine.ActiveFeed} reads the active
 *       index (the tenants with due work); {@link io.ankusa.dispatch.engine.TenantScheduler} runs
 *       deficit round-robin over per-tenant {@link io.ankusa.dispatch.engine.TenantLane}s within
 *       their in-flight and rate limits; {@link io.ankusa.dispatch.engine.TenantCursors} keeps each
 *       tenant's scan floor; {@link io.ankusa.dispatch.engine.TenantNames} caches names.</li>
 *   <li><b>Claim</b>: {@link io.ankusa.dispatch.engine.Tick} claims each tenant's turn through the
 *       queue's ledger and runs {@link io.ankusa.dispatch.engine.MarkerCleanup}, the only deleter
 *       of active markers.</li>
 *   <li><b>Attempts and the endpoint gate</b>: {@link io.ankusa.dispatch.engine.Attempts} calls the
 *       sink with bounded concurrency and a deadline; {@link io.ankusa.dispatch.engine.EndpointGate}
 *       (implemented by {@link io.ankusa.dispatch.engine.EndpointAdmission}) pauses, limits and
 *       breaks endpoints.</li>
 *   <li><b>Settle</b>: {@link io.ankusa.dispatch.engine.Settler} commits outcomes in batches,
 *       {@link io.ankusa.dispatch.engine.SettleSync} makes them durable,
 *       {@link io.ankusa.dispatch.engine.EndpointTransitions} persists endpoint state changes.</li>
 *   <li><b>Gauges</b>: {@link io.ankusa.dispatch.engine.GaugeReader} measures without folding a
 *       family, helped by {@link io.ankusa.dispatch.engine.PendingLeaders} and
 *       {@link io.ankusa.dispatch.engine.OldestDue}; {@link io.ankusa.dispatch.engine.HealthReader}
 *       measures the pipeline's health from the same marks and hold reasons, the tick's end time,
 *       the sink's {@link io.ankusa.dispatch.engine.SinkPulse} and the recent
 *       {@link io.ankusa.dispatch.engine.TenantFailures}.</li>
 * </ol>
 *
 * <p>{@link io.ankusa.dispatch.engine.DispatchPipeline} wires the stages and owns the threads. Only
 * it and {@link io.ankusa.dispatch.engine.GaugeReader} are public, for the entry points.
 */
package io.ankusa.dispatch.engine;

/**
 * What a running pipeline reports: {@link io.ankusa.dispatch.report.Gauges} (node counters, oldest
 * due age, top tenants by pending) to {@link io.ankusa.dispatch.report.GaugeListener}s, the
 * {@link io.ankusa.dispatch.report.TickReport} of one tick, and the scheduler's view of a tenant
 * ({@link io.ankusa.dispatch.report.TenantDispatch}) and of the tenants with due work
 * ({@link io.ankusa.dispatch.report.DueTenants}). Immutable values; the engine builds them, so they
 * import nothing of the entry points.
 */
package io.ankusa.dispatch.report;

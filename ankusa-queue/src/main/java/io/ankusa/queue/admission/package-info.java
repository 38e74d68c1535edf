/**
 * The one admission step (docs/delivery.md, "Admission"): the cached {@link
 * io.ankusa.api.TenantPolicy tenant policies} and the token buckets that the scheduler (delivery
 * rates, in-flight limits) and the ingest writer (ingest rates, pending limits) decide with.
 * Exported to the dispatcher only.
 */
package io.ankusa.queue.admission;

/**
 * Per-tenant counters as blind merge operands: {@link io.ankusa.queue.counters.Counters#ops}
 * coalesces a batch's deltas per (ord, field) and adds the same sums to the aggregate, ordinal 0.
 */
package io.ankusa.queue.counters;

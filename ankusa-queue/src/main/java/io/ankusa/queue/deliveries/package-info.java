/**
 * Rows and counters: the Deliveries op builders and the transitions built on them, the per-tenant
 * counters (blind merge operands, coalesced per (ord, field) and summed into the aggregate,
 * ordinal 0), the versioned binary codecs (hook envelope, delivery row, audit record; garbage is
 * refused as {@link io.ankusa.store.StoreCorruptionException}, never misread), the striped tenant
 * locks, and the store-backed delivery ledger. The only package that constructs
 * {@link io.ankusa.keys.DueKey ?D} {@link io.ankusa.keys.InflightKey ?F}
 * {@link io.ankusa.keys.DeadByTenantKey ?X} {@link io.ankusa.keys.ActiveKey ?A} keys (an architecture rule
 * checks), and the only way to write a
 * {@link io.ankusa.keys.DueKey ?D} {@link io.ankusa.keys.InflightKey ?F} {@link io.ankusa.keys.DeadKey ?x}
 * {@link io.ankusa.keys.DeadByTenantKey ?X} {@link io.ankusa.keys.ArchiveKey ?a} key: every builder adds its
 * counter deltas to the same batch.
 */
package io.ankusa.queue.deliveries;

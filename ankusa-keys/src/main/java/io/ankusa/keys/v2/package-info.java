/**
 * The format-2 layout that format 3 replaced (due {@code ?d}: {@link io.ankusa.keys.v2.DueKeyV2};
 * inflight {@code ?f}: {@link io.ankusa.keys.v2.InflightKeyV2}; the dead and archive values without
 * an ordinal: {@link io.ankusa.keys.v2.DeadValueV2}, {@link io.ankusa.keys.v2.ArchiveValueV2}), kept
 * only for the 2 → 3 migration (TEN-1 §0 and §7, {@code docs/design/ten-1.md}). Only
 * {@code io.ankusa.queue.migration} may use it (an architecture rule checks).
 */
package io.ankusa.keys.v2;

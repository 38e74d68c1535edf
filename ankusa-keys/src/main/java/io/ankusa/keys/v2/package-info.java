/**
 * The format-2 layout that format 3 replaced (due {@code ?d}, inflight {@code ?f}, the dead and
 * archive values without an ordinal), kept only for the 2 → 3 migration. Only
 * {@code io.ankusa.queue.migration} may use it (an architecture rule checks).
 */
package io.ankusa.keys.v2;

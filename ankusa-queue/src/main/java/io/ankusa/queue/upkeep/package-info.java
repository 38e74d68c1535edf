/**
 * Upkeep: reclaim of hooks nobody owes (through the {@link io.ankusa.keys.ClearedKey ?c} cleared markers), the audited
 * tenant purge, the audit trail with its retention, and the housekeeping thread that runs reclaim,
 * the dedupe sweep and audit retention in bounded batches.
 */
package io.ankusa.queue.upkeep;

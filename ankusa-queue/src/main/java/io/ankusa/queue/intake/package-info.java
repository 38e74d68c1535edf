/**
 * Intake: the ingest writer (one thread per queue, synced group commits, seq assignment), the last
 * seq recovered at open, tenant ordinals (allocation, the writer's bounded cache, ord/name lookups)
 * and the dedupe check by idempotency key with its expiry sweep.
 */
package io.ankusa.queue.intake;

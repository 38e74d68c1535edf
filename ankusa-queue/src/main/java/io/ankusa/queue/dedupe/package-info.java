/** Dedupe by idempotency key: the writer's check before tenant resolution, and the expiry sweep. */
package io.ankusa.queue.dedupe;

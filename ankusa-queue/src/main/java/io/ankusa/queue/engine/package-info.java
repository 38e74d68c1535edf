/**
 * The queue implementation: wiring and lifecycle of the queue's parts, and the dead-letter pages
 * (newest first across the node, or for some tenants through their {@link io.ankusa.keys.DeadByTenantKey ?X}
 * ranges). Does not
 * import the API package {@code io.ankusa.queue}; the API depends on it.
 */
package io.ankusa.queue.engine;

/** The ingest writer: one thread per queue, synced group commits, seq assignment, tenant allocation. */
package io.ankusa.queue.ingest;

/** The audit trail: operator actions (purge, replay) recorded newest-first readable, pruned by retention. */
package io.ankusa.queue.audit;

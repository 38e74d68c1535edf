/**
 * The dispatcher's port into the queue ({@link io.ankusa.queue.ledger.DeliveryLedger}), the decoded
 * rows it trades in, the storage ordinals ({@link io.ankusa.queue.ledger.TenantDirectory}), the
 * audit hook ({@link io.ankusa.queue.ledger.AuditRecorder}) and the group-commit stage
 * ({@link io.ankusa.queue.ledger.GroupCommit}) that the ingest threads and the dispatcher's settle
 * sync run on. Exported only to
 * {@code io.ankusa.dispatch} and {@code io.ankusa.cli}.
 */
package io.ankusa.queue.ledger;

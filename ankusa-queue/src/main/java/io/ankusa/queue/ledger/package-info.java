/**
 * The dispatcher's port into the queue ({@link io.ankusa.queue.ledger.DeliveryLedger}), the decoded
 * rows it trades in, the storage ordinals ({@link io.ankusa.queue.ledger.TenantDirectory}) and the
 * audit hook ({@link io.ankusa.queue.ledger.AuditRecorder}). Exported only to
 * {@code io.ankusa.dispatch} and {@code io.ankusa.cli}.
 */
package io.ankusa.queue.ledger;

/**
 * The dispatcher's port into the queue ({@link io.ankusa.queue.ledger.DeliveryLedger}) and the
 * decoded rows it trades in. Exported only to {@code io.ankusa.dispatch}.
 */
package io.ankusa.queue.ledger;

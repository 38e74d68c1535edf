/**
 * The outbox's write side ({@link io.ankusa.jdbc.AnkusaOutbox}), its relay into the queue
 * ({@link io.ankusa.jdbc.OutboxRelay}) and the SQL dialects they speak
 * ({@link io.ankusa.jdbc.OutboxDialect}); see docs/outbox.md.
 */
package io.ankusa.jdbc;

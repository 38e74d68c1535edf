/**
 * Public value types shared by the queue, the dispatcher and their users: {@link io.ankusa.api.Hook},
 * {@link io.ankusa.api.Receipt}, the stats records, {@link io.ankusa.api.QueueConfig} and the
 * refusals (every one an {@link io.ankusa.api.AnkusaException} with a machine-readable
 * {@code error()}).
 */
package io.ankusa.api;

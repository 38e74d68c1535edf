/**
 * What the queue and its pipeline decide, published as events: the {@link io.ankusa.api.events.QueueListener}
 * SPI and the event records it receives. Listeners are registered on
 * {@code QueueConfig.Builder.listener} (ingest and quarantine events) and on
 * {@code Pipeline.Builder.listener} (attempts, retries, dead letters, settlements, endpoint state,
 * ticks), and are called off the writer and pipeline threads through a bounded hand-off.
 */
package io.ankusa.api.events;

/**
 * The bounded hand-off of events to {@link io.ankusa.api.events.QueueListener}s, shared by the
 * ingest writer and (through a qualified export) the dispatch pipeline.
 */
package io.ankusa.queue.events;

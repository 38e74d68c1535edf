/**
 * The one conversion between a hook's stored {@link io.ankusa.api.TraceContext} and OpenTelemetry's
 * {@link io.opentelemetry.context.Context}, shared by the queue's ingest span, the pipeline's attempt
 * spans and the Kafka intake, so that all three read and write the W3C form alike.
 */
package io.ankusa.queue.tracing;

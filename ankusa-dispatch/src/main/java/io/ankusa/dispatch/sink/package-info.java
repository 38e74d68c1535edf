/**
 * What a sink author implements and reads: {@link io.ankusa.dispatch.sink.Sink} (one attempt of
 * one delivery), the {@link io.ankusa.dispatch.sink.Delivery} it is handed, the
 * {@link io.ankusa.dispatch.sink.SinkOutcome} it answers, {@link io.ankusa.dispatch.sink.Sinks}
 * (a router by sink number), and the {@link io.ankusa.dispatch.sink.RetryPolicy} that turns a
 * failed attempt into a {@link io.ankusa.dispatch.sink.RetryDecision}.
 */
package io.ankusa.dispatch.sink;

/**
 * Spring Boot auto-configuration for Ankusa: a {@link io.ankusa.queue.Queue} from {@code ankusa.*}
 * properties (the keys of {@link io.ankusa.api.QueueConfig#fromMap}), a
 * {@link io.ankusa.dispatch.Pipeline} over the application's {@link io.ankusa.dispatch.sink.Sink} (or an
 * {@link io.ankusa.dispatch.http.HttpSink} over its {@link io.ankusa.dispatch.http.EndpointResolver}),
 * their start and stop in order, a health indicator, and the transactional outbox of {@code ankusa-jdbc}
 * over the application's {@link javax.sql.DataSource}.
 */
package io.ankusa.spring.boot;

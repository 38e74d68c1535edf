package io.ankusa.spring.boot;

import io.ankusa.api.QueueConfig;
import io.ankusa.api.TenantPolicies;
import io.ankusa.api.events.QueueListener;
import io.ankusa.dispatch.Pipeline;
import io.ankusa.dispatch.Replayer;
import io.ankusa.dispatch.sink.RetryPolicy;
import io.ankusa.dispatch.sink.Sink;
import io.ankusa.queue.Queue;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.core.env.Environment;

/**
 * An Ankusa {@link Queue} from the {@code ankusa.*} properties (the keys of
 * {@link QueueConfig#fromMap}; {@code ankusa.directory} is required) and the application's
 * {@link TenantPolicies} bean if it has one; its {@link Replayer}; a {@link Pipeline} over its
 * {@link Sink} bean (or the {@link io.ankusa.dispatch.http.HttpSink} that
 * {@link AnkusaHttpSinkAutoConfiguration} builds from an {@link io.ankusa.dispatch.http.EndpointResolver})
 * with the {@code ankusa.pipeline.*} settings and its {@link RetryPolicy} bean if it has one (every
 * {@link QueueListener} bean, the Micrometer binder of {@link AnkusaMetricsAutoConfiguration} included,
 * is registered on both); and their {@link QueueLifecycle} and {@link PipelineLifecycle}, which stop
 * the pipeline before the queue closes. Each bean backs off when the application defines its own.
 *
 * <p>{@code ankusa.pipeline.mode} says whether the node delivers: {@code deliver} (the default)
 * needs a sink, and the start fails without one (its failure analysis says what to add);
 * {@code ingest-only} builds no pipeline and logs one INFO line saying so.
 */
@AutoConfiguration(after = AnkusaHttpSinkAutoConfiguration.class)
@EnableConfigurationProperties(AnkusaPipelineProperties.class)
public class AnkusaAutoConfiguration {

    /** The INFO line of an ingest-only node. */
    static final String INGEST_ONLY_NOTICE = "Ankusa is ingest-only (" + AnkusaPipelineProperties.PREFIX
            + ".mode=ingest-only): this node stores hooks and delivers none";

    /** Created by Spring. */
    public AnkusaAutoConfiguration() {
    }

    /**
     * The queue's configuration from the {@code ankusa.*} properties.
     *
     * @param environment     where the properties are
     * @param tenantPolicies  the application's tenant policies, if any
     * @param listeners       the application's event listeners (the Micrometer binder among them)
     * @return the configuration
     */
    @Bean
    @ConditionalOnMissingBean
    public QueueConfig ankusaQueueConfig(Environment environment, ObjectProvider<TenantPolicies> tenantPolicies,
            ObjectProvider<QueueListener> listeners) {
        QueueConfig.Builder builder = AnkusaQueueProperties.builder(environment);
        tenantPolicies.ifAvailable(builder::tenantPolicies);
        listeners.orderedStream().forEach(builder::listener);
        return builder.build();
    }

    /**
     * The queue, open from its creation until {@link QueueLifecycle} closes it.
     *
     * @param config the configuration
     * @return the open queue
     */
    @Bean
    @ConditionalOnMissingBean
    public Queue ankusaQueue(QueueConfig config) {
        return Queue.open(config);
    }

    /**
     * Closes the queue last.
     *
     * @param queue the queue
     * @return its lifecycle
     */
    @Bean
    @ConditionalOnMissingBean
    public QueueLifecycle ankusaQueueLifecycle(Queue queue) {
        return new QueueLifecycle(queue);
    }

    /**
     * The dead-letter replayer of the queue.
     *
     * @param queue the queue
     * @return its replayer
     */
    @Bean
    @ConditionalOnMissingBean
    public Replayer ankusaReplayer(Queue queue) {
        return Replayer.of(queue);
    }

    /**
     * The delivery pipeline, started by {@link PipelineLifecycle}, when the node delivers
     * ({@code ankusa.pipeline.mode=deliver}, the default).
     *
     * @param queue       the queue
     * @param sinks       where hooks go: the application's sink, or the HTTP sink over its endpoint resolver
     * @param properties  {@code ankusa.pipeline.*}
     * @param retryPolicy the application's retry policy, if any
     * @param listeners   the application's event listeners (the Micrometer binder among them)
     * @return the pipeline, not started
     * @throws IllegalStateException when there is no sink, so that the start fails saying what to add
     *         (in Spring Boot's failure analysis) instead of storing hooks that nothing delivers
     */
    @Bean
    @ConditionalOnMissingBean
    @Conditional(PipelineModeCondition.Deliver.class)
    public Pipeline ankusaPipeline(Queue queue, ObjectProvider<Sink> sinks, AnkusaPipelineProperties properties,
            ObjectProvider<RetryPolicy> retryPolicy, ObjectProvider<QueueListener> listeners) {
        Sink sink = sinks.getIfAvailable();
        if (sink == null) {
            throw new NoSinkException();
        }
        Pipeline.Builder builder = Pipeline.builder(queue, sink);
        retryPolicy.ifAvailable(builder::retryPolicy);
        listeners.orderedStream().forEach(builder::listener);
        if (properties.getRowsPerTick() != null) {
            builder.rowsPerTick(properties.getRowsPerTick());
        }
        if (properties.getBytesPerTick() != null) {
            builder.bytesPerTick(properties.getBytesPerTick());
        }
        if (properties.getQuantumBytes() != null) {
            builder.quantumBytes(properties.getQuantumBytes());
        }
        if (properties.getConcurrency() != null) {
            builder.concurrency(properties.getConcurrency());
        }
        if (properties.getTickInterval() != null) {
            builder.tickInterval(properties.getTickInterval());
        }
        if (properties.getSinkDeadline() != null) {
            builder.sinkDeadline(properties.getSinkDeadline());
        }
        if (properties.getGaugeInterval() != null) {
            builder.gaugeInterval(properties.getGaugeInterval());
        }
        return builder.manual();
    }

    /**
     * Says once, at start, that the node only stores hooks ({@code ankusa.pipeline.mode=ingest-only}):
     * one INFO line, so that a node that delivers nothing says so.
     *
     * @return the notice, logged once every singleton exists
     */
    @Bean
    @ConditionalOnMissingBean(Pipeline.class)
    @Conditional(PipelineModeCondition.IngestOnly.class)
    public SmartInitializingSingleton ankusaIngestOnlyNotice() {
        return () -> LoggerFactory.getLogger(AnkusaAutoConfiguration.class).info(INGEST_ONLY_NOTICE);
    }

    /**
     * Starts the pipeline with the application and stops it before the queue closes.
     *
     * @param pipeline the pipeline
     * @return its lifecycle
     */
    @Bean
    @ConditionalOnBean(Pipeline.class)
    @ConditionalOnMissingBean
    public PipelineLifecycle ankusaPipelineLifecycle(Pipeline pipeline) {
        return new PipelineLifecycle(pipeline);
    }

}

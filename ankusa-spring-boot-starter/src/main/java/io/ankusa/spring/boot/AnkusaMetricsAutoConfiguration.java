package io.ankusa.spring.boot;

import io.ankusa.micrometer.AnkusaMetrics;
import io.ankusa.dispatch.Pipeline;
import io.ankusa.queue.Queue;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/**
 * Ankusa's meters when {@code ankusa-micrometer} is on the class path: an {@link AnkusaMetrics}
 * bean, which is a {@link MeterBinder} (Spring Boot's metrics support binds it to the application's
 * registries) and a {@link io.ankusa.api.events.QueueListener} ({@link AnkusaAutoConfiguration}
 * registers it on the queue and the pipeline, so it counts from the first event), pointed at the
 * queue for the node gauges and at the pipeline for the health meters once the singletons exist:
 * one binder per queue, bound in one step. {@code ankusa.metrics.top-tenants} bounds its
 * per-tenant series.
 */
@AutoConfiguration(before = AnkusaAutoConfiguration.class)
@ConditionalOnClass({AnkusaMetrics.class, MeterBinder.class})
@EnableConfigurationProperties(AnkusaMetricsProperties.class)
public class AnkusaMetricsAutoConfiguration {

    /** Created by Spring. */
    public AnkusaMetricsAutoConfiguration() {
    }

    /**
     * The binder, with {@code ankusa.metrics.top-tenants} (default 10) and
     * {@code ankusa.metrics.refresh-interval} (default 5 s).
     *
     * @param properties {@code ankusa.metrics.*}
     * @return the binder
     */
    @Bean
    @ConditionalOnMissingBean
    public AnkusaMetrics ankusaMetrics(AnkusaMetricsProperties properties) {
        return properties.binder();
    }

    /**
     * Points the binder at the queue (its node gauges read {@code NaN} until then) and at the
     * pipeline, when there is one (its health meters and troubled tenants' series).
     *
     * @param metrics  the binder
     * @param queue    the queue, when there is one
     * @param pipeline the pipeline, when there is one
     * @return the callback, run once every singleton exists
     */
    @Bean
    public SmartInitializingSingleton ankusaMetricsMonitor(AnkusaMetrics metrics, ObjectProvider<Queue> queue,
            ObjectProvider<Pipeline> pipeline) {
        return () -> {
            queue.ifAvailable(metrics::monitor);
            pipeline.ifAvailable(metrics::watch);
        };
    }
}

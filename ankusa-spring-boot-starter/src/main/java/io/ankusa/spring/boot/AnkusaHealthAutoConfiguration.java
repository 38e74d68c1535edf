package io.ankusa.spring.boot;

import io.ankusa.dispatch.Pipeline;
import io.ankusa.queue.Queue;
import java.util.Optional;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;

/**
 * The {@code ankusa} {@link AnkusaHealthIndicator}, when Spring Boot's health support
 * ({@code spring-boot-health}, which the actuator brings) is on the class path and the queue is a
 * bean; off with {@code ankusa.health.enabled=false}.
 */
@AutoConfiguration(after = AnkusaAutoConfiguration.class)
@ConditionalOnClass(HealthIndicator.class)
@ConditionalOnBean(Queue.class)
@ConditionalOnProperty(prefix = "ankusa.health", name = "enabled", matchIfMissing = true)
@EnableConfigurationProperties(AnkusaHealthProperties.class)
public class AnkusaHealthAutoConfiguration {

    /** Created by Spring. */
    public AnkusaHealthAutoConfiguration() {
    }

    /**
     * The indicator, named {@code ankusa} in the health endpoint.
     *
     * @param queue      the queue
     * @param pipeline   the node's pipeline, if it has one
     * @param properties {@code ankusa.health.*}
     * @return the indicator
     */
    @Bean(name = "ankusaHealthIndicator")
    @ConditionalOnMissingBean(name = "ankusaHealthIndicator")
    public AnkusaHealthIndicator ankusaHealthIndicator(Queue queue, ObjectProvider<Pipeline> pipeline,
            AnkusaHealthProperties properties) {
        return new AnkusaHealthIndicator(queue, () -> Optional.ofNullable(pipeline.getIfAvailable()),
                properties.limits());
    }
}

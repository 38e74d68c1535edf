package io.ankusa.spring.boot;

import io.ankusa.dispatch.Pipeline;
import io.ankusa.dispatch.Replayer;
import io.ankusa.queue.Queue;
import java.util.Optional;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * The {@code ankusa} actuator endpoint ({@link AnkusaEndpoint}), when the actuator is on the class
 * path, the queue is a bean, the endpoint is available (enabled and exposed, as the actuator
 * decides for every endpoint) and the admin API, which serves a fuller API of its own, is not
 * mounted ({@link AnkusaAdminAutoConfiguration} registered no servlet: the admin module is absent,
 * disabled, or the application has no access policy for it).
 */
@AutoConfiguration(after = AnkusaAutoConfiguration.class,
        afterName = "io.ankusa.spring.boot.AnkusaAdminAutoConfiguration")
@ConditionalOnClass({Endpoint.class, ConditionalOnAvailableEndpoint.class})
@ConditionalOnMissingBean(name = AnkusaAdminAutoConfiguration.SERVLET_NAME)
@ConditionalOnBean({Queue.class, Replayer.class})
public class AnkusaEndpointAutoConfiguration {

    /** Created by Spring. */
    public AnkusaEndpointAutoConfiguration() {
    }

    /**
     * The endpoint.
     *
     * @param queue    the queue
     * @param replayer its replayer
     * @param pipeline the node's pipeline, if it has one
     * @return the endpoint
     */
    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnAvailableEndpoint
    public AnkusaEndpoint ankusaEndpoint(Queue queue, Replayer replayer, ObjectProvider<Pipeline> pipeline) {
        return new AnkusaEndpoint(queue, replayer, () -> Optional.ofNullable(pipeline.getIfAvailable()));
    }
}

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
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingClass;
import org.springframework.context.annotation.Bean;

/**
 * The {@code ankusa} actuator endpoint ({@link AnkusaEndpoint}), when the actuator is on the class
 * path, the queue is a bean, the endpoint is available (enabled and exposed, as the actuator
 * decides for every endpoint) and the admin module, which serves a fuller API of its own, is not
 * on the class path (its class {@code io.ankusa.admin.AnkusaAdmin}).
 */
@AutoConfiguration(after = AnkusaAutoConfiguration.class)
@ConditionalOnClass({Endpoint.class, ConditionalOnAvailableEndpoint.class})
@ConditionalOnMissingClass(AnkusaEndpointAutoConfiguration.ADMIN_MODULE_CLASS)
@ConditionalOnBean({Queue.class, Replayer.class})
public class AnkusaEndpointAutoConfiguration {

    /** The class whose presence says the admin module is on the class path. */
    static final String ADMIN_MODULE_CLASS = "io.ankusa.admin.AnkusaAdmin";

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

package io.ankusa.spring.boot;

import io.ankusa.dispatch.http.EndpointResolver;
import io.ankusa.dispatch.http.HttpSink;
import io.ankusa.dispatch.http.WebhookClient;
import io.ankusa.dispatch.sink.Sink;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/**
 * An {@link HttpSink} when the application has an {@link EndpointResolver} bean and no
 * {@link Sink} of its own: it posts each hook to the tenant's endpoint, through the application's
 * {@link WebhookClient} bean when it has one (to share its pool, or to allow private addresses:
 * the sink's own client refuses every address that is not public), with the settings of
 * {@link AnkusaHttpProperties}.
 */
@AutoConfiguration
@EnableConfigurationProperties(AnkusaHttpProperties.class)
public class AnkusaHttpSinkAutoConfiguration {

    /** Created by Spring. */
    public AnkusaHttpSinkAutoConfiguration() {
    }

    /**
     * The HTTP sink; closed with the context (a shared client stays open).
     *
     * @param resolver   the application's endpoints
     * @param client     the application's client, if any
     * @param properties {@code ankusa.http.*}
     * @return the sink
     */
    @Bean
    @ConditionalOnBean(EndpointResolver.class)
    @ConditionalOnMissingBean(Sink.class)
    public HttpSink ankusaHttpSink(EndpointResolver resolver, ObjectProvider<WebhookClient> client,
            AnkusaHttpProperties properties) {
        HttpSink.Builder builder = HttpSink.builder(resolver).traceparent(properties.isTraceparent());
        client.ifAvailable(builder::client);
        return builder.build();
    }
}

package io.ankusa.spring.boot;

import io.ankusa.dispatch.http.AddressGuard;
import io.ankusa.dispatch.http.EndpointResolver;
import io.ankusa.dispatch.http.HttpSink;
import io.ankusa.dispatch.http.RegistryResolver;
import io.ankusa.dispatch.http.WebhookClient;
import io.ankusa.dispatch.sink.Sink;
import io.ankusa.queue.Queue;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * An {@link HttpSink} when the application has no {@link Sink} of its own: it posts each hook to
 * the tenant's endpoint, through the application's {@link WebhookClient} bean when it has one (to
 * share its pool, or to allow private addresses: the sink's own client refuses every address that
 * is not public), with the settings of {@link AnkusaHttpProperties}.
 *
 * <p>The endpoints are the application's {@link EndpointResolver} bean when it has one; without
 * one they are the queue's endpoint registry ({@link RegistryResolver}, a bean itself, whose
 * {@link RegistryResolver#registry()} registers endpoints under the same {@link AddressGuard} the
 * sink connects through: the {@link WebhookClient} bean's, or {@link AddressGuard#publicOnly()}).
 * {@code ankusa.http.registry.enabled=false} turns this default off.
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
     * @param resolver   the application's endpoints, or the registry's
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

    /**
     * The registry resolver, when the application has neither endpoints nor a sink of its own. A
     * member class, so that its bean is defined before the sink's condition looks for a resolver.
     */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnProperty(prefix = AnkusaHttpProperties.PREFIX, name = "registry.enabled", matchIfMissing = true)
    static class RegistryResolverConfiguration {

        RegistryResolverConfiguration() {
        }

        /**
         * The resolver over the queue's endpoint registry.
         *
         * @param queue  the queue whose registry the sink reads
         * @param client the application's client, if any: its guard is the registry's address check
         * @return the resolver
         */
        @Bean
        @ConditionalOnMissingBean({EndpointResolver.class, Sink.class})
        RegistryResolver ankusaRegistryResolver(Queue queue, ObjectProvider<WebhookClient> client) {
            WebhookClient shared = client.getIfAvailable();
            return RegistryResolver.of(queue, shared == null ? AddressGuard.publicOnly() : shared.guard());
        }
    }
}

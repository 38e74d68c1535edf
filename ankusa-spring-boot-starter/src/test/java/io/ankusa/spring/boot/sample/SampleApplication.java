package io.ankusa.spring.boot.sample;

import io.ankusa.dispatch.http.AddressGuard;
import io.ankusa.dispatch.http.Endpoint;
import io.ankusa.dispatch.http.EndpointResolver;
import io.ankusa.dispatch.http.WebhookClient;
import io.ankusa.dispatch.http.WebhookSecret;
import java.net.URI;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;

/**
 * A sample service: every tenant's hooks go to one receiver ({@code sample.receiver-url}), which is
 * on 127.0.0.1 in the test, so the application's {@link WebhookClient} allows loopback (the default
 * client refuses every address that is not public). The starter builds the queue from
 * {@code ankusa.*}, an {@code HttpSink} over the resolver, the pipeline, their lifecycle and the
 * health indicator.
 */
@SpringBootApplication
public class SampleApplication {

    /** The endpoint every tenant's hooks go to. */
    @Bean
    EndpointResolver endpoints(@Value("${sample.receiver-url}") URI receiver) {
        return EndpointResolver.fixed(Endpoint.of(receiver, WebhookSecret.generate()));
    }

    /** A client that may connect to the loopback receiver. */
    @Bean(destroyMethod = "close")
    WebhookClient webhookClient() {
        return WebhookClient.builder().guard(AddressGuard.builder().allowRange("127.0.0.0/8").build()).build();
    }
}

package io.ankusa.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.api.Hook;
import io.ankusa.api.TraceContext;
import io.ankusa.dispatch.http.AddressGuard;
import io.ankusa.dispatch.http.Endpoint;
import io.ankusa.dispatch.http.EndpointResolver;
import io.ankusa.dispatch.http.WebhookClient;
import io.ankusa.dispatch.http.WebhookSecret;
import io.ankusa.queue.Queue;
import io.ankusa.spring.boot.sample.Receiver;
import java.nio.file.Path;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * The HTTP sink the starter builds over an endpoint resolver, delivering to a real receiver on
 * 127.0.0.1: {@code ankusa.http.traceparent} puts the hook's trace context on every request, and
 * without it no request carries one.
 */
class AnkusaHttpSinkAutoConfigurationTest {

    private static final String TRACEPARENT = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

    @TempDir
    Path dir;

    private Receiver receiver;

    @BeforeEach
    void startReceiver() {
        receiver = Receiver.start();
    }

    @AfterEach
    void stopReceiver() {
        receiver.close();
    }

    private ApplicationContextRunner runner() {
        EndpointResolver resolver = EndpointResolver.fixed(Endpoint.of(receiver.url(), WebhookSecret.generate()));
        return new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(AnkusaHttpSinkAutoConfiguration.class,
                        AnkusaAutoConfiguration.class))
                .withBean(EndpointResolver.class, () -> resolver)
                .withBean(WebhookClient.class, () -> WebhookClient.builder()
                        .guard(AddressGuard.builder().allowRange("127.0.0.0/8").build()).build())
                .withPropertyValues("ankusa.directory=" + dir, "ankusa.housekeeping.interval=0s",
                        "ankusa.pipeline.tick-interval=20ms");
    }

    @Test
    void theTraceparentPropertyPutsTheHooksTraceContextOnEveryRequest() {
        runner().withPropertyValues("ankusa.http.traceparent=true").run(context -> {
            deliver(context.getBean(Queue.class), "traced");
            assertThat(receiver.traceparent("traced")).contains(TRACEPARENT);
        });
    }

    @Test
    void withoutThePropertyNoRequestCarriesATraceparent() {
        runner().run(context -> {
            deliver(context.getBean(Queue.class), "untraced");
            assertThat(receiver.traceparent("untraced")).isEqualTo(Optional.empty());
        });
    }

    private void deliver(Queue queue, String id) throws Exception {
        queue.ingest(Hook.builder().id(id).sourceId("s").tenantId("t").payload("{}").sinks(0)
                .traceContext(TraceContext.of(TRACEPARENT)).build()).get(60, TimeUnit.SECONDS);
        assertThat(receiver.awaitAll(Set.of(id), 60)).as("the receiver got the hook").isTrue();
    }
}

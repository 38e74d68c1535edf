package io.ankusa.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ankusa.api.EndpointRegistryException;
import io.ankusa.api.EndpointSpec;
import io.ankusa.api.Hook;
import io.ankusa.api.Receipt;
import io.ankusa.dispatch.Pipeline;
import io.ankusa.dispatch.http.AddressGuard;
import io.ankusa.dispatch.http.Endpoint;
import io.ankusa.dispatch.http.EndpointResolver;
import io.ankusa.dispatch.http.HttpSink;
import io.ankusa.dispatch.http.RegistryResolver;
import io.ankusa.dispatch.http.WebhookClient;
import io.ankusa.dispatch.http.WebhookSecret;
import io.ankusa.dispatch.sink.Sink;
import io.ankusa.dispatch.sink.SinkOutcome;
import io.ankusa.queue.Queue;
import io.ankusa.spring.boot.sample.Receiver;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * The queue's endpoint registry as the starter's default endpoints: without an endpoint resolver
 * or a sink of the application's, an endpoint registered through the {@link RegistryResolver} bean
 * gets the hooks ingested by its event type (a real receiver on 127.0.0.1, on both backends); the
 * application's resolver or sink wins, and {@code ankusa.http.registry.enabled=false} turns it off.
 */
class RegistryResolverDefaultTest {

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
        return new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(AnkusaHttpSinkAutoConfiguration.class,
                        AnkusaAutoConfiguration.class))
                .withPropertyValues("ankusa.directory=" + dir, "ankusa.housekeeping.interval=0s",
                        "ankusa.pipeline.tick-interval=20ms");
    }

    private ApplicationContextRunner loopback() {
        return runner().withBean(WebhookClient.class, () -> WebhookClient.builder()
                .guard(AddressGuard.builder().allowRange("127.0.0.0/8").build()).build());
    }

    @ParameterizedTest(name = "an endpoint registered in the queue gets the hooks of its event type [{0}]")
    @ValueSource(strings = {"rocksdb", "lmdb"})
    void anEndpointRegisteredInTheQueueGetsTheHooksOfItsEventType(String backend) {
        loopback().withPropertyValues("ankusa.backend=" + backend).run(context -> {
            assertThat(context).hasNotFailed().hasSingleBean(RegistryResolver.class).hasSingleBean(HttpSink.class)
                    .hasSingleBean(Pipeline.class);
            context.getBean(RegistryResolver.class).registry().add("acme",
                    EndpointSpec.of(receiver.url()).withId("billing").withEventTypes(List.of("invoice.*")));
            Queue queue = context.getBean(Queue.class);
            Receipt receipt = queue.ingest(Hook.builder().id("msg_1").sourceId("billing").tenantId("acme")
                    .eventType("invoice.paid").payload("{}").build()).get(60, TimeUnit.SECONDS);
            assertThat(receipt.sinks()).contains(List.of(0));
            assertThat(receiver.awaitAll(Set.of("msg_1"), 60)).as("the registered endpoint got the hook").isTrue();
        });
    }

    @Test
    void withoutASharedClientTheRegistryRefusesWhatThePublicOnlyGuardRefuses() {
        runner().run(context -> {
            RegistryResolver resolver = context.getBean(RegistryResolver.class);
            assertThatThrownBy(() -> resolver.registry().add("acme", EndpointSpec.of(receiver.url())))
                    .isInstanceOf(EndpointRegistryException.class);
            assertThat(context.getBean(Queue.class).endpointRegistry().endpoints("acme")).isEmpty();
        });
    }

    @Test
    void anApplicationsResolverWins() {
        EndpointResolver own = EndpointResolver.fixed(Endpoint.of(receiver.url(), WebhookSecret.generate()));
        loopback().withBean(EndpointResolver.class, () -> own).run(context -> {
            assertThat(context).hasNotFailed().hasSingleBean(HttpSink.class).doesNotHaveBean(RegistryResolver.class);
            assertThat(context.getBean(EndpointResolver.class)).isSameAs(own);
        });
    }

    @Test
    void anApplicationsSinkWins() {
        Sink sink = d -> CompletableFuture.completedFuture(SinkOutcome.delivered());
        runner().withBean(Sink.class, () -> sink).run(context -> {
            assertThat(context).hasNotFailed().doesNotHaveBean(RegistryResolver.class).doesNotHaveBean(HttpSink.class);
            assertThat(context.getBean(Sink.class)).isSameAs(sink);
        });
    }

    @Test
    void thePropertyTurnsTheDefaultOff() {
        runner().withPropertyValues("ankusa.http.registry.enabled=false", "ankusa.pipeline.mode=ingest-only")
                .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(RegistryResolver.class)
                        .doesNotHaveBean(HttpSink.class));
    }
}

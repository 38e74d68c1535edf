package io.ankusa.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.ankusa.api.Hook;
import io.ankusa.api.QueueConfig;
import io.ankusa.api.TenantPolicies;
import io.ankusa.api.TenantPolicy;
import io.ankusa.dispatch.Pipeline;
import io.ankusa.dispatch.ReplayResult;
import io.ankusa.dispatch.Replayer;
import io.ankusa.dispatch.http.EndpointResolver;
import io.ankusa.dispatch.http.HttpSink;
import io.ankusa.dispatch.sink.Sink;
import io.ankusa.dispatch.sink.SinkOutcome;
import io.ankusa.micrometer.AnkusaMetrics;
import io.ankusa.queue.Queue;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.io.support.SpringFactoriesLoader;

/** What the auto-configuration builds from which properties and beans, and in which order it stops. */
class AnkusaAutoConfigurationTest {

    @TempDir
    Path dir;

    private ApplicationContextRunner runner() {
        return new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(AnkusaHttpSinkAutoConfiguration.class,
                        AnkusaAutoConfiguration.class, AnkusaHealthAutoConfiguration.class,
                        AnkusaMetricsAutoConfiguration.class))
                .withPropertyValues("ankusa.directory=" + dir, "ankusa.housekeeping.interval=0s");
    }

    private ApplicationContextRunner ingestOnly() {
        return runner().withPropertyValues("ankusa.pipeline.mode=ingest-only");
    }

    @Test
    void aNodeThatIsToDeliverWithoutASinkFailsToStartSayingWhatToAdd() {
        runner().withPropertyValues("ankusa.http.registry.enabled=false").run(context -> {
            assertThat(context).hasFailed();
            Throwable failure = context.getStartupFailure();
            assertThat(failure).rootCause().isInstanceOf(NoSinkException.class);
            // Spring Boot's own analyzers need the context to be made; they are left out here.
            List<FailureAnalyzer> analyzers = SpringFactoriesLoader.forDefaultResourceLocation()
                    .load(FailureAnalyzer.class, null, (type, name, notMade) -> { });
            assertThat(analyzers).as("registered in spring.factories").hasAtLeastOneElementOfType(
                    NoSinkFailureAnalyzer.class);
            FailureAnalysis analysis = analyzers.stream().filter(NoSinkFailureAnalyzer.class::isInstance)
                    .findFirst().orElseThrow().analyze(failure);
            assertThat(analysis).isNotNull();
            assertThat(analysis.getDescription()).contains("no io.ankusa.dispatch.sink.Sink bean")
                    .contains("no io.ankusa.dispatch.http.EndpointResolver bean");
            assertThat(analysis.getAction()).contains("define an EndpointResolver bean").contains("define a Sink bean")
                    .contains("remove ankusa.http.registry.enabled=false").contains("ankusa.pipeline.mode=ingest-only");
        });
    }

    @Test
    void anIngestOnlyNodeBuildsNoPipelineAndSaysSoInOneInfoLine() {
        Logger logger = (Logger) LoggerFactory.getLogger(AnkusaAutoConfiguration.class);
        ListAppender<ILoggingEvent> events = new ListAppender<>();
        events.start();
        logger.addAppender(events);
        try {
            ingestOnly().run(context -> {
                assertThat(context).hasNotFailed().hasSingleBean(Queue.class).doesNotHaveBean(Pipeline.class)
                        .doesNotHaveBean(PipelineLifecycle.class);
                context.getBean(Queue.class).ingest(Hook.builder().id("i").sourceId("s").tenantId("t")
                        .payload("{}").sinks(0).build()).get(60, TimeUnit.SECONDS);
                assertThat(context.getBean(Queue.class).stats().pending()).isEqualTo(1);
            });
        } finally {
            logger.detachAppender(events);
        }
        assertThat(events.list).filteredOn(e -> e.getLevel() == Level.INFO)
                .extracting(ILoggingEvent::getFormattedMessage)
                .containsExactly(AnkusaAutoConfiguration.INGEST_ONLY_NOTICE);
    }

    @Test
    void aDeliveringNodeLogsNoIngestOnlyLine() {
        Logger logger = (Logger) LoggerFactory.getLogger(AnkusaAutoConfiguration.class);
        ListAppender<ILoggingEvent> events = new ListAppender<>();
        events.start();
        logger.addAppender(events);
        Sink sink = d -> CompletableFuture.completedFuture(SinkOutcome.delivered());
        try {
            runner().withBean(Sink.class, () -> sink).run(context -> assertThat(context).hasSingleBean(Pipeline.class));
        } finally {
            logger.detachAppender(events);
        }
        assertThat(events.list).extracting(ILoggingEvent::getFormattedMessage)
                .doesNotContain(AnkusaAutoConfiguration.INGEST_ONLY_NOTICE);
    }

    @Test
    @SuppressWarnings("deprecation")
    void theDeprecatedEnabledFalseIsIngestOnlyAndContradictingTheModeFailsTheStart() {
        runner().withPropertyValues("ankusa.pipeline.enabled=false").run(context -> {
            assertThat(context).hasNotFailed().doesNotHaveBean(Pipeline.class);
            assertThat(context.getBean(AnkusaPipelineProperties.class).getEnabled()).isFalse();
        });
        runner().withPropertyValues("ankusa.pipeline.enabled=false", "ankusa.pipeline.mode=deliver").run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).rootCause()
                    .hasMessageContaining("ankusa.pipeline.enabled=false contradicts ankusa.pipeline.mode=deliver");
        });
    }

    @Test
    void theReplayerIsABeanOverTheQueueUnlessTheApplicationHasOne() {
        ingestOnly().run(context -> {
            assertThat(context).hasSingleBean(Replayer.class);
            assertThat(context.getBean(Replayer.class).replayTenant("nobody").match())
                    .isEqualTo(ReplayResult.Match.UNKNOWN_TENANT);
        });
        ingestOnly().withUserConfiguration(OwnReplayer.class).run(context -> {
            assertThat(context.getBeanNamesForType(Replayer.class)).containsExactly("mine");
        });
    }

    @Test
    void aMetricsSettingOutOfRangeFailsTheStart() {
        ingestOnly().withPropertyValues("ankusa.metrics.top-tenants=101").run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).rootCause().hasMessageContaining("topTenants must be in 0..100");
        });
    }

    @Test
    void theQueueKeysAreThoseOfQueueConfigFromMap() {
        ingestOnly().withPropertyValues("ankusa.backend=lmdb", "ankusa.tenants.max=7", "ankusa.batch.max-hooks=8",
                "ankusa.dedupe.window=5m", "ankusa.payload.max-bytes=2KiB", "ankusa.store.lmdb.mapSize=67108864")
                .run(context -> {
            assertThat(context).hasNotFailed();
            QueueConfig config = context.getBean(QueueConfig.class);
            assertThat(config.backend()).isEqualTo("lmdb");
            assertThat(config.tenantsMax()).isEqualTo(7);
            assertThat(config.batchMaxHooks()).isEqualTo(8);
            assertThat(config.dedupeWindow()).isEqualTo(Duration.ofMinutes(5));
            assertThat(config.payloadMaxBytes()).isEqualTo(2048);
            assertThat(config.storeSettings()).containsEntry("lmdb.mapSize", "67108864");
            assertThat(config.directory()).isEqualTo(dir);
            assertThat(context.getBean(Queue.class).health().running()).isTrue();
            assertThat(context).as("no sink, no pipeline").doesNotHaveBean(Pipeline.class);
            assertThat(context).hasSingleBean(AnkusaHealthIndicator.class);
        });
    }

    @Test
    void anUnknownKeyOrABadValueFailsTheStartNamingIt() {
        runner().withPropertyValues("ankusa.tenant.max=7", "ankusa.batch.max-hooks=lots").run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).rootCause().hasMessageContaining("unknown key 'tenant.max'")
                    .hasMessageContaining("'batch.max-hooks' = 'lots'");
        });
    }

    @Test
    void theApplicationsSinkAndTenantPoliciesAreUsed() {
        TenantPolicies policies = TenantPolicies.uniform(TenantPolicy.DEFAULT.withMaxPendingRows(3));
        Sink sink = d -> CompletableFuture.completedFuture(SinkOutcome.delivered());
        runner().withBean(TenantPolicies.class, () -> policies).withBean(Sink.class, () -> sink)
                .withPropertyValues("ankusa.pipeline.concurrency=4").run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context.getBean(QueueConfig.class).tenantPolicies()).isSameAs(policies);
                    assertThat(context).hasSingleBean(Pipeline.class).hasSingleBean(PipelineLifecycle.class)
                            .doesNotHaveBean(HttpSink.class);
                    assertThat(context.getBean(PipelineLifecycle.class).isRunning()).isTrue();
                });
    }

    @Test
    void theByteQuantumReachesThePipelineBuilder() {
        Sink sink = d -> CompletableFuture.completedFuture(SinkOutcome.delivered());
        runner().withBean(Sink.class, () -> sink).withPropertyValues("ankusa.pipeline.quantum-bytes=0")
                .run(context -> assertThat(context.getStartupFailure()).rootCause()
                        .hasMessageContaining("quantumBytes must be positive: 0"));
        runner().withBean(Sink.class, () -> sink).withPropertyValues("ankusa.pipeline.quantum-bytes=4096")
                .run(context -> assertThat(context).hasNotFailed().hasSingleBean(Pipeline.class));
    }

    @Test
    void anEndpointResolverGetsAnHttpSink() {
        EndpointResolver resolver = (tenant, sink) -> Optional.empty();
        runner().withBean(EndpointResolver.class, () -> resolver).run(context -> {
            assertThat(context).hasSingleBean(HttpSink.class).hasSingleBean(Pipeline.class);
        });
    }

    @Test
    void withoutSpringBootHealthThereIsNoIndicator() {
        ingestOnly().withClassLoader(new FilteredClassLoader(HealthIndicator.class)).run(context -> {
            assertThat(context).hasNotFailed().hasSingleBean(Queue.class).doesNotHaveBean(AnkusaHealthIndicator.class);
        });
    }

    @Test
    void theMicrometerBinderIsABeanListeningToTheQueueAndReadingItsGauges() {
        ingestOnly().run(context -> {
            AnkusaMetrics metrics = context.getBean(AnkusaMetrics.class);
            assertThat(context.getBean(QueueConfig.class).listeners()).contains(metrics);
            SimpleMeterRegistry registry = new SimpleMeterRegistry();
            metrics.bindTo(registry);
            context.getBean(Queue.class).ingest(Hook.builder().id("m").sourceId("s").tenantId("t").payload("{}")
                    .sinks(0).build()).get(60, TimeUnit.SECONDS);
            metrics.refresh();
            assertThat(registry.get("ankusa.deliveries.pending").gauge().value()).isEqualTo(1.0);
        });
    }

    @Test
    void withoutAnkusaMicrometerThereIsNoBinder() {
        ingestOnly().withClassLoader(new FilteredClassLoader(AnkusaMetrics.class)).run(context -> {
            assertThat(context).hasNotFailed().hasSingleBean(Queue.class).doesNotHaveBean(AnkusaMetrics.class);
            assertThat(context.getBean(QueueConfig.class).listeners()).isEmpty();
        });
    }

    @Test
    void thePipelineStopsBeforeTheQueueCloses() throws Exception {
        int hooks = 12;
        CountDownLatch attempted = new CountDownLatch(hooks);
        List<CompletableFuture<SinkOutcome>> held = new CopyOnWriteArrayList<>();
        Sink holding = d -> {
            CompletableFuture<SinkOutcome> outcome = new CompletableFuture<>();
            held.add(outcome);
            attempted.countDown();
            return outcome;
        };
        runner().withBean(Sink.class, () -> holding).withPropertyValues("ankusa.pipeline.tick-interval=20ms")
                .withBean("releaser", SmartLifecycle.class, () -> new Releaser(held))
                .run(context -> {
                    Queue queue = context.getBean(Queue.class);
                    for (int i = 0; i < hooks; i++) {
                        queue.ingest(Hook.builder().id("h" + i).sourceId("s").tenantId("t" + (i % 2)).payload("{}")
                                .sinks(0).build()).get(60, TimeUnit.SECONDS);
                    }
                    assertThat(attempted.await(60, TimeUnit.SECONDS)).as("every hook is being delivered").isTrue();
                    ((Releaser) context.getBean("releaser")).pipeline = context.getBean(PipelineLifecycle.class);
                });
        // The context is closed: the attempts were answered while the pipeline stopped, and their
        // settles committed because the queue was still open.
        try (Queue queue = Queue.open(QueueConfig.builder(dir).housekeepingInterval(Duration.ZERO).build())) {
            assertThat(queue.stats().pending()).as("no attempt returned to due: each was settled").isZero();
            assertThat(queue.stats().inflight()).isZero();
        }
    }

    /**
     * Stops just before the pipeline's phase and answers the held attempts once the pipeline has
     * begun to stop (its lifecycle no longer running), so that their settles happen during the
     * pipeline's stop, which must come before the queue closes.
     */
    private static final class Releaser implements SmartLifecycle {
        private final List<CompletableFuture<SinkOutcome>> held;
        volatile PipelineLifecycle pipeline;
        private volatile boolean running;

        Releaser(List<CompletableFuture<SinkOutcome>> held) {
            this.held = held;
        }

        @Override
        public void start() {
            running = true;
        }

        @Override
        public void stop() {
            running = false;
            PipelineLifecycle watched = pipeline;
            Thread answer = new Thread(() -> {
                while (watched.isRunning()) {
                    Thread.onSpinWait();
                }
                held.forEach(outcome -> outcome.complete(SinkOutcome.delivered()));
            }, "answer-held-attempts");
            answer.setDaemon(true);
            answer.start();
        }

        @Override
        public boolean isRunning() {
            return running;
        }

        @Override
        public int getPhase() {
            return PipelineLifecycle.PHASE + 1;
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class OwnReplayer {
        @Bean
        Replayer mine(Queue queue) {
            return Replayer.of(queue);
        }
    }
}

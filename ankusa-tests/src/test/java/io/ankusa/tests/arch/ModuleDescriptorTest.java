package io.ankusa.tests.arch;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.keys.StoreFormat;
import io.ankusa.queue.Queue;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReference;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The module descriptors of the API, the keys, the queue and the command line, read from the built classes (this module runs
 * on the class path, so the descriptors are read from the artifacts with a {@link ModuleFinder}).
 * A careless edit of a {@code module-info.java} fails here.
 */
class ModuleDescriptorTest {

    private static ModuleDescriptor descriptorOf(Class<?> type, String module) throws URISyntaxException {
        Path location = Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
        return ModuleFinder.of(location).find(module).map(ModuleReference::descriptor)
                .orElseThrow(() -> new AssertionError("no module " + module + " at " + location));
    }

    private static Map<String, Set<String>> exports(ModuleDescriptor descriptor) {
        return descriptor.exports().stream().collect(Collectors.toMap(ModuleDescriptor.Exports::source,
                ModuleDescriptor.Exports::targets));
    }

    @Test
    void theKeyLayoutIsExportedToTheQueueOnly() throws Exception {
        ModuleDescriptor keys = descriptorOf(StoreFormat.class, "io.ankusa.keys");
        assertThat(keys.exports()).isNotEmpty().allSatisfy(e -> {
            assertThat(e.isQualified()).as(e.source() + " is a qualified export").isTrue();
            assertThat(e.targets()).as(e.source() + " targets").containsExactly("io.ankusa.queue");
        });
        assertThat(exports(keys).keySet()).containsExactlyInAnyOrder("io.ankusa.keys", "io.ankusa.keys.v2");
        assertThat(keys.requires()).extracting(ModuleDescriptor.Requires::name).containsExactly("java.base");
        assertThat(keys.opens()).isEmpty();
    }

    @Test
    void theApiExportsItsTypesAndTheStoredHookRestorerToTheQueueOnly() throws Exception {
        ModuleDescriptor api = descriptorOf(io.ankusa.api.Hook.class, "io.ankusa.api");
        assertThat(exports(api)).containsOnly(
                Map.entry("io.ankusa.api", Set.of()),
                Map.entry("io.ankusa.api.events", Set.of()),
                Map.entry("io.ankusa.api.stored", Set.of("io.ankusa.queue")));
        assertThat(api.requires()).extracting(ModuleDescriptor.Requires::name).containsExactly("java.base");
    }

    @Test
    void theQueueExportsItsApiItsLedgerAdmissionAndEventsToTheDispatcherAndItsFixturesToTheCliOnly() throws Exception {
        ModuleDescriptor queue = descriptorOf(Queue.class, "io.ankusa.queue");
        assertThat(exports(queue)).containsOnly(
                Map.entry("io.ankusa.queue", Set.of()),
                // The Kafka node reads dead letters' hooks and restores dead letters through the ledger.
                Map.entry("io.ankusa.queue.ledger", Set.of("io.ankusa.dispatch", "io.ankusa.cli", "io.ankusa.kafka")),
                Map.entry("io.ankusa.queue.admission", Set.of("io.ankusa.dispatch")),
                Map.entry("io.ankusa.queue.events", Set.of("io.ankusa.dispatch")),
                // The one conversion between a stored trace context and OpenTelemetry's.
                Map.entry("io.ankusa.queue.tracing", Set.of("io.ankusa.dispatch", "io.ankusa.kafka")),
                Map.entry("io.ankusa.queue.fixtures", Set.of("io.ankusa.cli")));
        // Queue's signatures use io.ankusa.api types and OpenTelemetry's API (Queue.open with a tracer) only;
        // the store SPI stays out of users' reach.
        assertThat(queue.requires()).filteredOn(r -> r.modifiers().contains(ModuleDescriptor.Requires.Modifier.TRANSITIVE))
                .extracting(ModuleDescriptor.Requires::name)
                .containsExactlyInAnyOrder("io.ankusa.api", "io.opentelemetry.api", "io.opentelemetry.context");
        assertThat(queue.packages()).containsExactlyInAnyOrder("io.ankusa.queue", "io.ankusa.queue.intake",
                "io.ankusa.queue.deliveries", "io.ankusa.queue.ledger", "io.ankusa.queue.upkeep",
                "io.ankusa.queue.migration", "io.ankusa.queue.engine", "io.ankusa.queue.fixtures",
                "io.ankusa.queue.admission", "io.ankusa.queue.events", "io.ankusa.queue.tracing");
        assertThat(queue.opens()).isEmpty();
    }

    @Test
    void theMicrometerBindingExportsOnePackageAndRequiresMicrometerTransitively() throws Exception {
        ModuleDescriptor micrometer = descriptorOf(io.ankusa.micrometer.AnkusaMetrics.class, "io.ankusa.micrometer");
        assertThat(exports(micrometer)).containsOnly(Map.entry("io.ankusa.micrometer", Set.of()));
        // AnkusaMetrics is a MeterBinder and a QueueListener monitoring a Queue: those modules are in its signatures.
        assertThat(micrometer.requires()).filteredOn(r -> r.modifiers().contains(ModuleDescriptor.Requires.Modifier.TRANSITIVE))
                .extracting(ModuleDescriptor.Requires::name).containsExactlyInAnyOrder("io.ankusa.api", "io.ankusa.queue",
                        "io.ankusa.dispatch", "micrometer.core");
        assertThat(micrometer.opens()).isEmpty();
        assertThat(micrometer.provides()).isEmpty();
    }

    @Test
    void theAdminApiExportsItsEntryPointsOnlyAndNeedsJettyForItsOwnPortOnly() throws Exception {
        ModuleDescriptor admin = descriptorOf(io.ankusa.admin.AdminServlet.class, "io.ankusa.admin");
        assertThat(exports(admin)).as("the router, handlers, JSON and servlet plumbing stay inside")
                .containsOnly(Map.entry("io.ankusa.admin", Set.of()));
        // AdminServlet is an HttpServlet over a Queue and a Replayer: those modules are in its signatures.
        assertThat(admin.requires()).filteredOn(r -> r.modifiers().contains(ModuleDescriptor.Requires.Modifier.TRANSITIVE))
                .extracting(ModuleDescriptor.Requires::name).containsExactlyInAnyOrder("io.ankusa.api", "io.ankusa.queue",
                        "io.ankusa.dispatch", "jakarta.servlet");
        assertThat(admin.requires()).filteredOn(r -> r.modifiers().contains(ModuleDescriptor.Requires.Modifier.STATIC))
                .extracting(ModuleDescriptor.Requires::name)
                .containsExactlyInAnyOrder("org.eclipse.jetty.server", "org.eclipse.jetty.ee10.servlet");
        assertThat(admin.opens()).as("JSON by Jackson's tree model: nothing to reflect on").isEmpty();
        assertThat(admin.provides()).isEmpty();
    }

    @Test
    void theTestKitExportsItsThreePackagesAndProvidesTheMemoryBackend() throws Exception {
        ModuleDescriptor kit = descriptorOf(io.ankusa.testkit.AnkusaTest.class, "io.ankusa.testkit");
        assertThat(exports(kit)).containsOnly(
                Map.entry("io.ankusa.testkit", Set.of()),
                Map.entry("io.ankusa.testkit.store", Set.of()),
                Map.entry("io.ankusa.testkit.property", Set.of()));
        assertThat(kit.provides()).singleElement().satisfies(p -> {
            assertThat(p.service()).isEqualTo("io.ankusa.store.spi.StoreProvider");
            assertThat(p.providers()).containsExactly("io.ankusa.testkit.store.MemoryStoreProvider");
        });
        // Users' tests see the queue, the dispatcher, the SPI and JUnit's API through the kit; never a backend or the keys.
        assertThat(kit.requires()).filteredOn(r -> r.modifiers().contains(ModuleDescriptor.Requires.Modifier.TRANSITIVE))
                .extracting(ModuleDescriptor.Requires::name).containsExactlyInAnyOrder("io.ankusa.api", "io.ankusa.queue",
                        "io.ankusa.dispatch", "io.ankusa.store", "org.junit.jupiter.api", "org.junit.jupiter.params");
        assertThat(kit.requires()).extracting(ModuleDescriptor.Requires::name)
                .noneMatch(name -> name.startsWith("io.ankusa.store.") || name.equals("io.ankusa.keys"));
        assertThat(kit.opens()).isEmpty();
    }

    @Test
    void theCommandLineExportsNothingAndOpensItsCommandsToPicocliOnly() throws Exception {
        ModuleDescriptor cli = descriptorOf(io.ankusa.cli.Ankusa.class, "io.ankusa.cli");
        assertThat(cli.exports()).isEmpty();
        assertThat(cli.opens()).singleElement().satisfies(o -> {
            assertThat(o.source()).isEqualTo("io.ankusa.cli.command");
            assertThat(o.targets()).containsExactly("info.picocli");
        });
        assertThat(cli.requires()).extracting(ModuleDescriptor.Requires::name)
                .contains("info.picocli", "io.ankusa.queue", "io.ankusa.dispatch")
                .noneMatch(name -> name.startsWith("io.ankusa.store.") || name.equals("io.ankusa.keys"));
    }
}

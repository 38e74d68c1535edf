package io.ankusa.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.dispatch.sink.Sink;
import java.lang.module.ModuleDescriptor;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** A careless edit of {@code module-info.java} fails here. */
class DispatchModuleTest {

    private static ModuleDescriptor descriptor() {
        Module module = Sink.class.getModule();
        assertThat(module.isNamed()).as("tests run on the module path").isTrue();
        return module.getDescriptor();
    }

    @Test
    void exportsTheEntryPointsTheSinkContractTheReportsAndTheHttpSinkToEveryone() {
        Set<ModuleDescriptor.Exports> exports = descriptor().exports();

        assertThat(exports).map(ModuleDescriptor.Exports::source)
                .containsExactlyInAnyOrder("io.ankusa.dispatch", "io.ankusa.dispatch.sink", "io.ankusa.dispatch.report",
                        "io.ankusa.dispatch.http");
        assertThat(exports).noneMatch(ModuleDescriptor.Exports::isQualified);
        assertThat(descriptor().packages()).as("the engine is in the module, not exported")
                .contains("io.ankusa.dispatch.engine");
        assertThat(descriptor().opens()).isEmpty();
    }

    @Test
    void requiresTheApiAndTheQueueTransitivelyAndTheHttpClientAndLoggingPlainly() {
        var requires = descriptor().requires().stream()
                .filter(r -> !r.name().equals("java.base"))
                .collect(Collectors.toMap(ModuleDescriptor.Requires::name,
                        r -> r.modifiers().contains(ModuleDescriptor.Requires.Modifier.TRANSITIVE)));

        assertThat(requires).containsOnly(
                Map.entry("org.apache.httpcomponents.client5.httpclient5", false),
                Map.entry("org.apache.httpcomponents.core5.httpcore5", false),
                Map.entry("org.apache.httpcomponents.core5.httpcore5.h2", false),
                Map.entry("jdk.net", false),
                Map.entry("org.slf4j", false),
                Map.entry("io.ankusa.api", true),
                Map.entry("io.ankusa.queue", true));
        assertThat(descriptor().provides()).isEmpty();
    }
}

package io.ankusa.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReference;
import java.nio.file.Path;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The module descriptor of {@code io.ankusa.jdbc}, read from the built classes: one exported
 * package, no qualified exports, pgjdbc only as an optional ({@code static}) requirement, and
 * transitive requirements for exactly the modules its signatures name.
 */
class JdbcModuleDescriptorTest {

    private static ModuleDescriptor descriptor() throws Exception {
        Path classes = Path.of(AnkusaOutbox.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        return ModuleFinder.of(classes).find("io.ankusa.jdbc").map(ModuleReference::descriptor)
                .orElseThrow(() -> new AssertionError("no module io.ankusa.jdbc at " + classes));
    }

    @Test
    void theOutboxExportsOnePackageAndNeedsPgjdbcOnlyOptionally() throws Exception {
        ModuleDescriptor jdbc = descriptor();
        assertThat(jdbc.exports()).singleElement().satisfies(e -> {
            assertThat(e.source()).isEqualTo("io.ankusa.jdbc");
            assertThat(e.isQualified()).isFalse();
        });
        assertThat(jdbc.packages()).containsExactly("io.ankusa.jdbc");
        assertThat(jdbc.opens()).isEmpty();
        assertThat(jdbc.provides()).isEmpty();
        assertThat(jdbc.uses()).isEmpty();
        // Queue, Hook, the api's exceptions and java.sql's Connection and DataSource are in the signatures.
        Set<String> transitive = jdbc.requires().stream()
                .filter(r -> r.modifiers().contains(ModuleDescriptor.Requires.Modifier.TRANSITIVE))
                .map(ModuleDescriptor.Requires::name).collect(Collectors.toSet());
        assertThat(transitive).containsExactlyInAnyOrder("io.ankusa.api", "io.ankusa.queue", "java.sql");
        assertThat(jdbc.requires()).filteredOn(r -> r.name().equals("org.postgresql.jdbc")).singleElement()
                .satisfies(r -> assertThat(r.modifiers()).contains(ModuleDescriptor.Requires.Modifier.STATIC));
        assertThat(jdbc.requires()).extracting(ModuleDescriptor.Requires::name)
                .noneMatch(name -> name.startsWith("io.ankusa.store") || name.equals("io.ankusa.keys")
                        || name.equals("io.ankusa.dispatch"));
    }
}

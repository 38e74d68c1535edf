package io.ankusa.store.lmdb;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.store.spi.StoreProvider;
import java.io.IOException;
import java.io.InputStream;
import java.lang.module.ModuleDescriptor;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The backend's descriptor: it exports and opens nothing and only provides its StoreProvider. */
class ModuleDescriptorTest {

    private static Path classes;
    private static ModuleDescriptor descriptor;

    @BeforeAll
    static void readCompiledDescriptor() throws IOException, URISyntaxException {
        classes = Path.of(LmdbStoreProvider.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        try (InputStream in = Files.newInputStream(classes.resolve("module-info.class"))) {
            descriptor = ModuleDescriptor.read(in);
        }
    }

    @Test
    void isNamedAfterItsRootPackageAndHoldsOnlyIt() {
        assertThat(descriptor.name()).isEqualTo("io.ankusa.store.lmdb");
        assertThat(descriptor.packages()).containsExactly("io.ankusa.store.lmdb");
    }

    @Test
    void exportsAndOpensNothing() {
        assertThat(descriptor.isOpen()).isFalse();
        assertThat(descriptor.exports()).isEmpty();
        assertThat(descriptor.opens()).isEmpty();
        assertThat(descriptor.uses()).isEmpty();
    }

    @Test
    void requiresTheSpiLmdbjavaItsFfiAndAsmOnly() {
        assertThat(descriptor.requires().stream()
                .filter(r -> !r.modifiers().contains(ModuleDescriptor.Requires.Modifier.MANDATED))
                .map(r -> r.name() + r.modifiers()))
                .containsExactlyInAnyOrder("io.ankusa.store[]", "lmdbjava[]", "org.jnrproject.ffi[]", "org.objectweb.asm[]");
    }

    @Test
    void providesTheStoreProviderOnModuleAndClassPath() throws IOException {
        assertThat(descriptor.provides()).singleElement().satisfies(p -> {
            assertThat(p.service()).isEqualTo(StoreProvider.class.getName());
            assertThat(p.providers()).containsExactly(LmdbStoreProvider.class.getName());
        });
        Path services = classes.resolve("META-INF/services/" + StoreProvider.class.getName());
        assertThat(Files.readAllLines(services, StandardCharsets.UTF_8).stream()
                .map(String::trim).filter(line -> !line.isEmpty()).collect(Collectors.toList()))
                .containsExactly(LmdbStoreProvider.class.getName());
    }
}

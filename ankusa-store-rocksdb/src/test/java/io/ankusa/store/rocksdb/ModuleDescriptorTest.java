package io.ankusa.store.rocksdb;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.store.spi.StoreProvider;
import java.io.InputStream;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReference;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The backend's module descriptor and class-path registration, so a careless edit fails the build. */
class ModuleDescriptorTest {

    private static ModuleDescriptor descriptor() throws Exception {
        Path classes = Path.of(RocksStoreProvider.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        return ModuleFinder.of(classes).findAll().stream().map(ModuleReference::descriptor)
                .filter(d -> d.name().equals("io.ankusa.store.rocksdb")).findFirst().orElseThrow();
    }

    @Test
    void exportsNothingAndProvidesTheStoreProvider() throws Exception {
        ModuleDescriptor descriptor = descriptor();
        assertThat(descriptor.exports()).isEmpty();
        assertThat(descriptor.opens()).isEmpty();
        assertThat(descriptor.provides()).singleElement().satisfies(provides -> {
            assertThat(provides.service()).isEqualTo(StoreProvider.class.getName());
            assertThat(provides.providers()).containsExactly(RocksStoreProvider.class.getName());
        });
        assertThat(descriptor.requires()).map(ModuleDescriptor.Requires::name)
                .containsExactlyInAnyOrder("java.base", "io.ankusa.store", "rocksdbjni");
        assertThat(descriptor.requires()).allSatisfy(r ->
                assertThat(r.modifiers()).doesNotContain(ModuleDescriptor.Requires.Modifier.TRANSITIVE));
    }

    @Test
    void classPathServiceFileNamesTheProvider() throws Exception {
        try (InputStream in = RocksStoreProvider.class.getClassLoader()
                .getResourceAsStream("META-INF/services/" + StoreProvider.class.getName())) {
            assertThat(in).isNotNull();
            assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8).strip())
                    .isEqualTo(RocksStoreProvider.class.getName());
        }
    }
}

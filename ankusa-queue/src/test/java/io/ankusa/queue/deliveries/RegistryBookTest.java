package io.ankusa.queue.deliveries;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.api.EndpointSpec;
import io.ankusa.tests.queue.QueueUnderTest;
import java.net.URI;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class RegistryBookTest {

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aStoreWithoutRegisteredEndpointsSaysSoAndOneWithThemToo(String backend) {
        try (QueueUnderTest q = QueueUnderTest.open(backend, dir)) {
            q.ingest(QueueUnderTest.hook("h1", "acme", 0));
            assertThat(new RegistryBook(q.store()).anyRegistered()).as("hooks but no endpoint").isFalse();

            String id = q.queue().endpointRegistry().add("acme", EndpointSpec.of(URI.create("https://acme.example/hooks")))
                    .id();

            assertThat(new RegistryBook(q.store()).anyRegistered()).as("a book opened after").isTrue();
            q.queue().endpointRegistry().remove("acme", id);
            assertThat(new RegistryBook(q.store()).anyRegistered()).as("a removed endpoint's tombstone counts")
                    .isTrue();
        }
    }
}

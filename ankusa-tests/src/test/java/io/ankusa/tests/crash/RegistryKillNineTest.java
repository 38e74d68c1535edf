package io.ankusa.tests.crash;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.api.RegisteredEndpoint;
import io.ankusa.tests.queue.IndexFold;
import io.ankusa.tests.queue.QueueUnderTest;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The endpoint registry survives a kill -9: a child JVM ({@link RegisteringQueueProcess}) registers
 * and rotates endpoints and is killed with SIGKILL part way, never closing its queue; every change
 * it saw returned is in the reopened store with the same sink and secrets, and the endpoints the
 * kill cut short are either whole or absent.
 */
class RegistryKillNineTest {

    @TempDir
    Path tempDir;

    @ParameterizedTest(name = "a registry survives a kill -9 [{0}]")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aRegistrySurvivesAKillNine(String backend) {
        Path dir = tempDir.resolve("store");
        List<String[]> acknowledged = new ArrayList<>();
        try (ChildJvm child = ChildJvm.start(RegisteringQueueProcess.class, tempDir.resolve("child.err"), backend,
                dir.toString())) {
            child.readUntil(line -> {
                if (line.startsWith("endpoint ")) {
                    acknowledged.add(line.substring("endpoint ".length()).split(" "));
                }
                return acknowledged.size() == RegisteringQueueProcess.ENDPOINTS / 2 || line.equals("done");
            });
            child.killNine();
        }
        assertThat(acknowledged).hasSizeGreaterThanOrEqualTo(RegisteringQueueProcess.ENDPOINTS / 2);

        try (QueueUnderTest q = QueueUnderTest.open(backend, dir)) {
            List<RegisteredEndpoint> stored = q.queue().endpointRegistry().endpoints("acme");
            assertThat(stored).hasSizeGreaterThanOrEqualTo(acknowledged.size());
            for (String[] ack : acknowledged) {
                RegisteredEndpoint endpoint = q.queue().endpointRegistry().endpoint("acme", ack[0]).orElseThrow();
                assertThat(endpoint.sink()).isEqualTo(Integer.parseInt(ack[1]));
                assertThat(endpoint.secrets()).extracting(s -> s.secret())
                        .containsExactlyElementsOf(Arrays.asList(ack).subList(2, ack.length));
                assertThat(endpoint.url()).isEqualTo(URI.create("https://" + ack[0] + ".example.com/in"));
            }
            for (int i = 0; i < stored.size(); i++) {
                assertThat(stored.get(i).sink()).as("sinks allocated in order, none lost").isEqualTo(i);
            }
            IndexFold.of(q.store()).assertCountersMatch(q.store());
        }
    }
}

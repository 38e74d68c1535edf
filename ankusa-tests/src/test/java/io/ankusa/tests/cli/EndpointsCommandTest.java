package io.ankusa.tests.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.api.events.EndpointState;
import io.ankusa.dispatch.Pipeline;
import io.ankusa.dispatch.sink.SinkOutcome;
import io.ankusa.tests.queue.QueueUnderTest;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** {@code ankusa endpoints list|enable|disable} over a store where a 410 disabled one endpoint. */
class EndpointsCommandTest {

    @TempDir
    Path dir;

    private CliRun run(String backend, String... args) {
        return CliRun.against(dir, backend, args);
    }

    /** Tenant "acme": sink 0 answered 410 (disabled, its delivery waits), sink 1 delivered. */
    private void goneStore(String backend) {
        try (QueueUnderTest q = QueueUnderTest.open(backend, dir)) {
            q.ingest(QueueUnderTest.hook("h-1", "acme", 0, 1));
            try (Pipeline pipeline = Pipeline.builder(q.queue(), d -> CompletableFuture.completedFuture(
                    d.sink() == 0 ? SinkOutcome.endpointGone("http 410") : SinkOutcome.delivered())).manual()) {
                pipeline.tick().toCompletableFuture().join();
            }
            assertThat(q.queue().endpoints(10)).singleElement().satisfies(e -> assertThat(e.state()).isEqualTo(EndpointState.DISABLED));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void ankusaEndpointsListsEnablesAndDisablesEndpointsAudited(String backend) {
        goneStore(backend);

        CliRun list = run(backend, "endpoints", "list");
        CliRun json = run(backend, "endpoints", "list", "--tenant", "acme", "--json");
        assertThat(list.exit()).as(list.err()).isZero();
        assertThat(list.out()).containsPattern("(?m)^acme\\s+0\\s+disabled\\s+gone\\s+2026-01-01T00:00:00Z\\s+2026-01-01T00:00:00Z");
        assertThat(json.out()).contains("{\"endpoints\":[{\"tenant\":\"acme\",\"sink\":0,\"state\":\"disabled\",\"reason\":\"gone\"");

        CliRun enable = run(backend, "endpoints", "enable", "--tenant", "acme", "--sink", "0");
        assertThat(enable.exit()).as(enable.err()).isZero();
        assertThat(enable.out()).containsPattern("(?m)^state\\s+active$");
        assertThat(run(backend, "endpoints", "list").out()).contains("every endpoint is active and none is failing");

        CliRun disable = run(backend, "endpoints", "disable", "--tenant", "acme", "--sink", "3");
        assertThat(disable.exit()).as(disable.err()).isZero();
        assertThat(run(backend, "endpoints", "list").out()).containsPattern("(?m)^acme\\s+3\\s+disabled\\s+operator\\s");

        assertThat(run(backend, "endpoints", "enable", "--tenant", "acme").exit()).as("no --sink").isEqualTo(2);
        assertThat(run(backend, "endpoints", "enable", "--tenant", "nobody", "--sink", "0").exit()).as("unknown tenant").isEqualTo(6);
        assertThat(run(backend, "endpoints", "enable", "--tenant", "acme", "--sink", "70000").exit()).isEqualTo(2);
        try (QueueUnderTest q = QueueUnderTest.open(backend, dir)) {
            assertThat(q.queue().auditTrail(3)).extracting(e -> e.action().code())
                    .containsExactly("endpoint-disable", "endpoint-enable", "endpoint-disable");
            assertThat(q.queue().auditTrail(1).get(0).counts()).containsEntry("sink", 3L).containsEntry("operator", 1L);
        }
    }
}

package io.ankusa.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.api.Hook;
import io.ankusa.api.QueueConfig;
import io.ankusa.queue.Queue;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** stats, tenants and dlq with --json: one JSON object on one line, strings escaped. */
class JsonOutputTest {

    /**
     * A tenant id with quotes, a backslash and a bracket: legal in a tenant id (control characters
     * are refused when a hook is built; JsonTest covers their escapes).
     */
    private static final String AWKWARD_TENANT = "acme \"eu\\1\"[2J";

    @TempDir
    Path dir;

    private Path storeWith(String backend, String... tenants) {
        return TenantStores.storeWith(dir, backend, tenants);
    }

    @ParameterizedTest
    @ValueSource(strings = {"rocksdb", "lmdb"})
    void statsJsonHoldsTheCountersOnOneLine(String backend) {
        Path store = storeWith(backend, "acme", "acme", "globex");

        CommandRun run = CommandRun.of("stats", "--json", "--store", store.toString(), "--backend", backend);

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).matches("\\{\"store\":\"[^\"]+\",\"backend\":\"" + backend + "\",\"tenants\":2,"
                + "\"pending\":6,\"scheduled\":0,\"inflight\":0,\"dead\":0,\"bytes\":\\d+,\"archivePending\":0,"
                + "\"quarantined\":0,\"oldestDueMillis\":\\d+}\n");
    }

    @Test
    void statsJsonOfATenantEscapesItsId() {
        Path store = storeWith("rocksdb", AWKWARD_TENANT, AWKWARD_TENANT, "globex");

        CommandRun run = CommandRun.of("stats", "--json", "--store", store.toString(), "--tenant", AWKWARD_TENANT);

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).matches("\\{\"tenant\":\"acme \\\\\"eu\\\\\\\\1\\\\\"\\[2J\","
                + "\"pending\":4,\"scheduled\":0,\"inflight\":0,\"dead\":0,\"bytes\":\\d+,\"quarantined\":0}\n");
    }

    @Test
    void tenantsJsonListsTheTopTenants() {
        Path store = storeWith("rocksdb", "a", "b", "b", AWKWARD_TENANT, "b");

        CommandRun run = CommandRun.of("tenants", "--json", "--store", store.toString(), "--top", "2");

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).startsWith("{\"tenants\":3,\"top\":[{\"tenant\":\"b\",\"pending\":6},{\"tenant\":")
                .endsWith("\"pending\":2}]}\n").doesNotContain("\u001b");
    }

    @Test
    void dlqJsonPagesWithANextCursorThatTheNextCallAccepts() {
        Path store = dir.resolve("dead");
        CommandRun demo = CommandRun.of("demo", "--store", store.toString(), "--hooks", "30", "--tenants", "3",
                "--fail-rate", "1", "--permanent-share", "1");
        assertThat(demo.exitCode()).as(demo.err()).isZero();

        CommandRun first = CommandRun.of("dlq", "--json", "--store", store.toString(), "--limit", "20");
        Matcher next = Pattern.compile("\"next\":\"([^\"]+)\"}\n$").matcher(first.out());
        assertThat(next.find()).as(first.out()).isTrue();
        CommandRun second = CommandRun.of("dlq", "--json", "--store", store.toString(), "--limit", "20",
                "--after", next.group(1));

        assertThat(first.out()).startsWith("{\"letters\":[{\"deadAt\":\"20").contains("\"sink\":0,\"attempts\":1,")
                .containsPattern("\"hook\":\"demo-\\d+\",\"seq\":\\d+,\"sink\":0,")
                .contains("\"lastError\":\"simulated permanent failure");
        assertThat(Pattern.compile("\"hook\":").matcher(first.out()).results().count()).isEqualTo(20);
        assertThat(Pattern.compile("\"hook\":").matcher(second.out()).results().count()).isEqualTo(10);
        assertThat(second.out()).endsWith("],\"next\":null}\n");
    }

    @Test
    void dlqJsonOfAnEmptyStoreIsAnEmptyPage() {
        Path store = storeWith("rocksdb", "acme");

        CommandRun run = CommandRun.of("dlq", "--json", "--store", store.toString());

        assertThat(run.out()).isEqualTo("{\"letters\":[],\"next\":null}\n");
    }
}

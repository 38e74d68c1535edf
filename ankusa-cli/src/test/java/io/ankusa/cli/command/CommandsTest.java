package io.ankusa.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.api.Hook;
import io.ankusa.api.QueueConfig;
import io.ankusa.queue.Queue;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The commands run in process over stores written through the queue, and their refusals. */
class CommandsTest {

    @TempDir
    Path dir;

    private Path storeWith(String backend, String... tenants) {
        return TenantStores.storeWith(dir, backend, tenants);
    }

    @ParameterizedTest
    @ValueSource(strings = {"rocksdb", "lmdb"})
    void statsShowsTheAggregateCountersAndTheTenantCount(String backend) {
        Path store = storeWith(backend, "acme", "acme", "globex");

        CommandRun run = CommandRun.of("stats", "--store", store.toString(), "--backend", backend);

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).containsPattern("(?m)^tenants\\s+2$").containsPattern("(?m)^pending\\s+6$")
                .containsPattern("(?m)^dead\\s+0$").contains("(" + backend + ")");
        assertThat(run.err()).isEmpty();
    }

    @Test
    void statsOfATenantShowsItsCounters() {
        Path store = storeWith("rocksdb", "acme", "acme", "globex");

        CommandRun run = CommandRun.of("--store", store.toString(), "stats", "--tenant", "acme");

        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).containsPattern("(?m)^tenant\\s+acme \\(ordinal \\d+\\)$").containsPattern("(?m)^pending\\s+4$");
    }

    @Test
    void anUnknownTenantIsRefused() {
        Path store = storeWith("rocksdb", "acme");

        CommandRun run = CommandRun.of("stats", "--store", store.toString(), "--tenant", "nobody");

        assertThat(run.exitCode()).isEqualTo(ExitCode.UNKNOWN_TENANT.code());
        assertThat(run.errLines()).containsExactly("ankusa: unknown tenant 'nobody' in " + store);
        assertThat(run.out()).isEmpty();
    }

    @Test
    void tenantsCountsTheTenants() {
        Path store = storeWith("rocksdb", "a", "b", "c", "a");

        CommandRun run = CommandRun.of("tenants", "--store", store.toString());

        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).startsWith("tenants 3\n");
    }

    @ParameterizedTest
    @ValueSource(strings = {"stats", "tenants"})
    void aPathWithoutAStoreIsRefusedAndLeftAlone(String command) {
        Path missing = dir.resolve("missing");

        CommandRun run = CommandRun.of(command, "--store", missing.toString());

        assertThat(run.exitCode()).isEqualTo(ExitCode.NO_STORE.code());
        assertThat(run.errLines()).singleElement().asString().startsWith("ankusa: no store at " + missing);
        assertThat(missing).doesNotExist();
    }

    @Test
    void anEmptyDirectoryIsNoStore() throws Exception {
        Path empty = Files.createDirectory(dir.resolve("empty"));

        CommandRun run = CommandRun.of("stats", "--store", empty.toString());

        assertThat(run.exitCode()).isEqualTo(ExitCode.NO_STORE.code());
        assertThat(empty).isEmptyDirectory();
    }

    @Test
    void aStoreOpenElsewhereIsRefusedAsLocked() {
        Path store = storeWith("rocksdb", "acme");
        try (Queue held = Queue.open(QueueConfig.builder(store).build())) {
            CommandRun run = CommandRun.of("stats", "--store", store.toString());

            assertThat(run.exitCode()).isEqualTo(ExitCode.STORE_LOCKED.code());
            assertThat(run.errLines()).singleElement().asString().startsWith("ankusa: store " + store);
            assertThat(held.tenantCount()).isOne();
        }
    }

    @Test
    void aStoreOfAnotherBackendIsRefused() {
        Path store = storeWith("lmdb", "acme");

        CommandRun run = CommandRun.of("stats", "--store", store.toString(), "--backend", "rocksdb");

        assertThat(run.exitCode()).isEqualTo(ExitCode.BACKEND_MISMATCH.code());
        assertThat(run.errLines()).singleElement().asString()
                .isEqualTo("ankusa: store " + store + " was written by the 'lmdb' backend; it cannot be opened with"
                        + " 'rocksdb' (pass --backend lmdb)");
    }

    @Test
    void checkpointWritesACopyThatOpensAsAStore() {
        Path store = storeWith("rocksdb", "acme", "globex");
        Path copy = dir.resolve("copy");

        CommandRun run = CommandRun.of("checkpoint", "--store", store.toString(), copy.toString());

        assertThat(run.exitCode()).as(run.err()).isZero();
        CommandRun stats = CommandRun.of("stats", "--store", copy.toString());
        assertThat(stats.exitCode()).isZero();
        assertThat(stats.out()).containsPattern("(?m)^tenants\\s+2$").containsPattern("(?m)^pending\\s+4$");
    }

    @Test
    void checkpointRefusesAnExistingTarget() throws Exception {
        Path store = storeWith("rocksdb", "acme");
        Path taken = Files.createDirectory(dir.resolve("taken"));

        CommandRun run = CommandRun.of("checkpoint", "--store", store.toString(), taken.toString());

        assertThat(run.exitCode()).isEqualTo(ExitCode.TARGET_EXISTS.code());
        assertThat(run.errLines()).containsExactly("ankusa: checkpoint target " + taken + " exists");
    }

    @ParameterizedTest
    @ValueSource(strings = {"stats --bogus", "nosuchcommand", "--backend nosuchbackend stats", "checkpoint", "stats --tenant"})
    void badArgumentsAreAOneLineUsageError(String line) {
        CommandRun run = CommandRun.of(line.split(" "));

        assertThat(run.exitCode()).isEqualTo(ExitCode.USAGE.code());
        assertThat(run.errLines()).singleElement().asString().startsWith("ankusa").contains("--help");
        assertThat(run.out()).isEmpty();
    }

    @Test
    void noCommandIsAUsageErrorListingTheCommands() {
        CommandRun run = CommandRun.of();

        assertThat(run.exitCode()).isEqualTo(ExitCode.USAGE.code());
        assertThat(run.errLines()).singleElement().asString().contains("stats", "tenants", "checkpoint");
    }

    @Test
    void helpListsTheCommandsAndExitCodes() {
        CommandRun run = CommandRun.of("--help");

        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).contains("stats", "tenants", "checkpoint", "Exit codes:", "--store=DIR", "--backend=NAME");
    }

    @Test
    void storeAndBackendMayComeBeforeOrAfterTheCommand() {
        Path store = storeWith("lmdb", "acme");

        assertThat(CommandRun.of("--store", store.toString(), "--backend", "lmdb", "tenants", "--top", "0").out())
                .isEqualTo("tenants 1\n");
        assertThat(CommandRun.of("tenants", "--top", "0", "--store", store.toString(), "--backend", "lmdb").out())
                .isEqualTo("tenants 1\n");
    }
}

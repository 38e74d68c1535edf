package io.ankusa.tests.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.api.Hook;
import io.ankusa.api.QueueConfig;
import io.ankusa.queue.Queue;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code ankusa} command as a separate process on the module path: what it prints and how it
 * exits on a real store and on each refusal (exit codes as in {@code docs/cli.md}). Running the CLI
 * as a named module also proves that the other modules' descriptors work for a real consumer.
 */
class CliProcessTest {

    private static CliLauncher ankusa;

    @TempDir
    Path dir;

    @BeforeAll
    static void findTheModules() {
        ankusa = new CliLauncher();
    }

    /** A store with 3 hooks of tenant acme and 1 of globex, one delivery each, written through the queue. */
    private Path store(String backend) {
        Path store = dir.resolve("store");
        try (Queue queue = Queue.open(QueueConfig.builder(store).backend(backend).build())) {
            List<CompletableFuture<?>> receipts = new ArrayList<>();
            for (String tenant : List.of("acme", "acme", "acme", "globex")) {
                receipts.add(queue.ingest(Hook.builder().id("h" + receipts.size()).sourceId("cli-test")
                        .tenantId(tenant).payload("{\"n\":1}").sinks(0).build()));
            }
            CompletableFuture.allOf(receipts.toArray(CompletableFuture<?>[]::new)).join();
        }
        return store;
    }

    @Test
    void statsPrintsTheCountersOfAStore() throws Exception {
        Path store = store("rocksdb");

        CliLauncher.Result result = ankusa.run("stats", "--store", store.toString());

        assertThat(result.exitCode()).as(result.err()).isZero();
        assertThat(result.out()).containsPattern("(?m)^tenants\\s+2$").containsPattern("(?m)^pending\\s+4$")
                .containsPattern("(?m)^inflight\\s+0$").containsPattern("(?m)^dead\\s+0$");
        assertThat(result.err()).isEmpty();
    }

    @Test
    void statsOfATenantOnAnLmdbStore() throws Exception {
        Path store = store("lmdb");

        CliLauncher.Result result = ankusa.run("--backend", "lmdb", "--store", store.toString(), "stats", "--tenant", "acme");

        assertThat(result.exitCode()).as(result.err()).isZero();
        assertThat(result.out()).containsPattern("(?m)^pending\\s+3$");
    }

    @Test
    void aPathWithoutAStoreExitsThreeAndCreatesNothing() throws Exception {
        Path missing = dir.resolve("nothing-here");

        CliLauncher.Result result = ankusa.run("stats", "--store", missing.toString());

        assertThat(result.exitCode()).isEqualTo(3);
        assertThat(result.errLines()).singleElement().asString().startsWith("ankusa: no store at " + missing);
        assertThat(missing).doesNotExist();
    }

    @Test
    void aStoreOpenInAnotherProcessExitsFour() throws Exception {
        Path store = store("rocksdb");
        try (Queue held = Queue.open(QueueConfig.builder(store).build())) {
            CliLauncher.Result result = ankusa.run("stats", "--store", store.toString());

            assertThat(result.exitCode()).isEqualTo(4);
            assertThat(result.errLines()).singleElement().asString()
                    .isEqualTo("ankusa: store " + store + " is in use by another process (stop it, or work on a checkpoint)");
            assertThat(held.stats().pending()).isEqualTo(4);
        }
    }

    @Test
    void anUnknownTenantExitsSix() throws Exception {
        Path store = store("rocksdb");

        CliLauncher.Result result = ankusa.run("stats", "--store", store.toString(), "--tenant", "initech");

        assertThat(result.exitCode()).isEqualTo(6);
        assertThat(result.errLines()).containsExactly("ankusa: unknown tenant 'initech' in " + store);
    }

    @Test
    void aStoreOfAnotherBackendExitsSeven() throws Exception {
        Path store = store("lmdb");

        CliLauncher.Result result = ankusa.run("stats", "--store", store.toString());

        assertThat(result.exitCode()).isEqualTo(7);
        assertThat(result.errLines()).singleElement().asString().contains("'lmdb' backend");
    }

    @Test
    void badArgumentsExitTwoWithOneLine() throws Exception {
        CliLauncher.Result result = ankusa.run("stats", "--no-such-option");

        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.errLines()).containsExactly(
                "ankusa stats: Unknown option: '--no-such-option' (see 'ankusa stats --help')");
        assertThat(result.out()).isEmpty();
    }
}

package io.ankusa.tests.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.api.Hook;
import io.ankusa.api.QueueConfig;
import io.ankusa.queue.Queue;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ankusa stats}, {@code tenants} and {@code dlq} on an LMDB store whose {@code data.mdb} was cut in
 * half: before the meta-page check they died with SIGBUS (exit 135); now they exit 8 and say so.
 */
class CliTruncatedStoreTest {

    @TempDir
    Path dir;

    @Test
    void theCliRefusesATruncatedLmdbFileWithExit8InsteadOfDying() throws Exception {
        Path store = dir.resolve("store");
        try (Queue queue = Queue.open(QueueConfig.builder(store).backend("lmdb").build())) {
            List<CompletableFuture<?>> receipts = new ArrayList<>();
            for (int i = 0; i < 3_000; i++) {
                receipts.add(queue.ingest(Hook.builder().id("h" + i).sourceId("cli-test").tenantId("t" + (i % 50))
                        .payload("{\"n\":" + i + "}").sinks(0).build()));
            }
            CompletableFuture.allOf(receipts.toArray(CompletableFuture<?>[]::new)).join();
        }
        Path data = store.resolve("data.mdb");
        try (RandomAccessFile file = new RandomAccessFile(data.toFile(), "rw")) {
            file.setLength(Files.size(data) / 2);
        }
        CliLauncher ankusa = new CliLauncher();
        for (String command : List.of("stats", "tenants", "dlq")) {
            CliLauncher.Result result = ankusa.run(command, "--store", store.toString(), "--backend", "lmdb");
            assertThat(result.exitCode()).as("ankusa %s: %s", command, result.err()).isEqualTo(8);
            assertThat(result.err()).contains("data.mdb").contains("truncated");
        }
    }
}

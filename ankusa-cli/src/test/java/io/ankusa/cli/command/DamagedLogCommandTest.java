package io.ankusa.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.api.Hook;
import io.ankusa.api.QueueConfig;
import io.ankusa.queue.Queue;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Comparator;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A damaged write-ahead log from the command line: a byte damaged in the middle of a RocksDB store's
 * write-ahead log (records after it) makes {@code ankusa stats} exit 8 with a one-line message;
 * it used to read the damage as the end of the log and print counters without the later hooks,
 * exit 0.
 */
class DamagedLogCommandTest {

    private static final int HOOKS = 400;

    @TempDir
    Path dir;

    @Test
    void statsOnAStoreWhoseWriteAheadLogIsDamagedMidLogExits8() throws IOException {
        Path store = dir.resolve("store");
        try (Queue queue = Queue.open(QueueConfig.builder(store).backend("rocksdb").build())) {
            for (int i = 0; i < HOOKS; i++) {
                // One at a time: each ingest is a synced commit of its own, a record of its own in the log.
                queue.ingest(Hook.builder().id("h" + i).sourceId("test").tenantId("t" + (i % 7))
                        .payload("{\"n\":" + i + "}").sinks(0).build()).join();
            }
        }
        Path log = largestLog(store);
        long middle = Files.size(log) / 2;
        try (FileChannel channel = FileChannel.open(log, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            ByteBuffer one = ByteBuffer.allocate(1);
            channel.read(one, middle);
            channel.write(ByteBuffer.wrap(new byte[] {(byte) (one.get(0) ^ 0x5A)}), middle);
        }

        CommandRun run = CommandRun.of("stats", "--store", store.toString());

        assertThat(run.exitCode()).as("stdout: %s%nstderr: %s", run.out(), run.err())
                .isEqualTo(ExitCode.STORE_CORRUPT.code());
        assertThat(run.errLines()).singleElement().asString().contains("opening rocksdb store", "the store is corrupt", "checksum mismatch");
        assertThat(run.out()).isEmpty();
    }

    private static Path largestLog(Path store) throws IOException {
        try (Stream<Path> files = Files.list(store)) {
            return files.filter(p -> p.getFileName().toString().endsWith(".log"))
                    .max(Comparator.comparingLong(DamagedLogCommandTest::size))
                    .orElseThrow(() -> new AssertionError("no log file in " + store));
        }
    }

    private static long size(Path file) {
        try {
            return Files.size(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

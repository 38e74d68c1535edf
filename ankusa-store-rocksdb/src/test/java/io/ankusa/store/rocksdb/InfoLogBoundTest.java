package io.ankusa.store.rocksdb;

import static io.ankusa.store.rocksdb.TestStores.FAMILIES;
import static io.ankusa.store.rocksdb.TestStores.ITEMS;
import static io.ankusa.store.rocksdb.TestStores.key;
import static io.ankusa.store.rocksdb.TestStores.open;
import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.store.Durability;
import io.ankusa.store.StoreOptions;
import io.ankusa.store.WriteBatch;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a running store holds on disk besides its data stays within its settings: RocksDB's info
 * log within {@code rocksdb.infoLogBytes} (without a size RocksDB writes one {@code LOG}
 * for the life of the process, 0.12 MiB/min under the soak's load).
 */
class InfoLogBoundTest {

    @TempDir
    Path dir;

    @Test
    void theInfoLogStaysWithinRocksdbInfoLogBytesWhileTheStoreRuns() throws IOException {
        long bound = RocksSettings.MIN_INFO_LOG_BYTES;
        Path storeDir = dir.resolve("s");
        Set<String> oldFilesSeen = new HashSet<>();
        long most = 0;
        try (RocksStore store = open(StoreOptions.create(storeDir, FAMILIES)
                .with(RocksSettings.INFO_LOG_BYTES, Long.toString(bound)))) {
            // Every checkpoint flushes the memtables: a few KB of LOG lines each, and no restart between.
            for (int i = 0; i < 400 && oldFilesSeen.size() < 2 * RocksSettings.INFO_LOG_FILES; i++) {
                WriteBatch batch = new WriteBatch();
                batch.put(ITEMS, key("k" + i), new byte[100]);
                store.commit(batch, Durability.ASYNC);
                store.checkpoint(dir.resolve("checkpoint-" + i));
                List<Path> infoLogs = infoLogs(storeDir);
                infoLogs.stream().map(p -> p.getFileName().toString()).filter(n -> n.startsWith("LOG.old"))
                        .forEach(oldFilesSeen::add);
                long bytes = 0;
                for (Path log : infoLogs) {
                    bytes += Files.size(log);
                }
                most = Math.max(most, bytes);
                assertThat(infoLogs).as("info log files").hasSizeLessThanOrEqualTo(RocksSettings.INFO_LOG_FILES);
            }
        }
        assertThat(oldFilesSeen).as("the log was rolled more often than the files kept").hasSizeGreaterThanOrEqualTo(
                2 * RocksSettings.INFO_LOG_FILES);
        // Each file may pass its size by the one message that found it full.
        assertThat(most).as("largest info log seen").isLessThanOrEqualTo(bound + 16 * 1024);
    }

    private static List<Path> infoLogs(Path storeDir) throws IOException {
        try (Stream<Path> files = Files.list(storeDir)) {
            return files.filter(p -> p.getFileName().toString().startsWith("LOG")).toList();
        }
    }
}

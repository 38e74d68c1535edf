package io.ankusa.tests.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.store.Store;
import io.ankusa.store.StoreOptions;
import io.ankusa.testkit.store.StoreConformanceSuite;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * The conformance suite on the RocksDB backend, with corruption injection: the table files
 * ({@code *.sst}) of the closed store get 64 bytes flipped in their middle, which lands in a data
 * block whose checksum then fails.
 */
class RocksDbConformanceTest extends StoreConformanceSuite {

    @Override
    protected String backend() {
        return "rocksdb";
    }

    /**
     * With the smallest log bound ({@code rocksdb.maxTotalWalBytes}, 1 MiB): RocksDB keeps a
     * replayed log in memtables at open ({@code avoid_flush_during_recovery}), so it is this bound,
     * passed while the tests write, that moves rows into table files for the corruption injection.
     */
    @Override
    protected Store open(StoreOptions options) {
        return super.open(options.with("rocksdb.maxTotalWalBytes", Long.toString(1L << 20)));
    }

    @Override
    protected boolean supportsCorruptionInjection() {
        return true;
    }

    @Override
    protected void corruptDataFiles(Path directory) throws IOException {
        List<Path> tables = tables(directory);
        if (tables.isEmpty()) {
            // The log bound's flush runs in the background and a close may cancel it: a checkpoint
            // flushes the memtables into the live store's table files for certain.
            try (Store store = openAt(directory, FAMILIES, false)) {
                store.checkpoint(directory.resolveSibling(directory.getFileName() + "-checkpoint"));
            }
            tables = tables(directory);
        }
        assertThat(tables).as("table files in %s", directory).isNotEmpty();
        for (Path table : tables) {
            try (RandomAccessFile file = new RandomAccessFile(table.toFile(), "rw")) {
                long middle = file.length() / 2;
                byte[] bytes = new byte[64];
                file.seek(middle);
                file.readFully(bytes);
                for (int i = 0; i < bytes.length; i++) {
                    bytes[i] ^= (byte) 0xFF;
                }
                file.seek(middle);
                file.write(bytes);
            }
        }
    }

    private static List<Path> tables(Path directory) throws IOException {
        try (Stream<Path> files = Files.walk(directory)) {
            return files.filter(f -> f.getFileName().toString().endsWith(".sst")).toList();
        }
    }
}

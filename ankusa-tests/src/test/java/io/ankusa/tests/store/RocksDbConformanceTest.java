package io.ankusa.tests.store;

import static org.assertj.core.api.Assertions.assertThat;

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

    @Override
    protected boolean supportsCorruptionInjection() {
        return true;
    }

    @Override
    protected void corruptDataFiles(Path directory) throws IOException {
        List<Path> tables;
        try (Stream<Path> files = Files.walk(directory)) {
            tables = files.filter(f -> f.getFileName().toString().endsWith(".sst")).toList();
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
}

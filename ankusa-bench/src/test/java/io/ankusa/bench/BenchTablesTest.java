package io.ankusa.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The tables of a bench's output, read from what it printed and through the TSV file. */
class BenchTablesTest {

    static final List<String> OUTPUT = List.of(
            "[main] INFO a log line",
            "Store bench: 5 rounds (median), Java 17",
            "",
            "| backend | SYNC commits/s | p99 µs |",
            "|---|---:|---:|",
            "| rocksdb | 1,200 | 35.0 |",
            "| lmdb | 900 | 12.5 |",
            "",
            "| a line with bars | that is no table |",
            "",
            "| cell | rows/s |",
            "|---|---|",
            "| purge | 40,000 |",
            "All bench rules hold.");

    @Test
    void findsEachTableWithItsCaptionAndRows() {
        List<BenchTables.Table> tables = BenchTables.parse(OUTPUT);

        assertThat(tables).hasSize(2);
        BenchTables.Table store = tables.get(0);
        assertThat(store.caption()).isEqualTo("Store bench: 5 rounds (median), Java 17");
        assertThat(store.header()).containsExactly("backend", "SYNC commits/s", "p99 µs");
        assertThat(store.align()).containsExactly("---", "---:", "---:");
        assertThat(store.rows()).containsExactly(List.of("rocksdb", "1,200", "35.0"), List.of("lmdb", "900", "12.5"));
        assertThat(tables.get(1).caption()).as("a table line just before is no caption").isEmpty();
        assertThat(tables.get(1).rows()).containsExactly(List.of("purge", "40,000"));
        assertThat(store.markdown()).isEqualTo("| backend | SYNC commits/s | p99 µs |\n|---|---:|---:|\n"
                + "| rocksdb | 1,200 | 35.0 |\n| lmdb | 900 | 12.5 |\n");
    }

    @Test
    void theTsvFileGivesTheSameTables(@TempDir Path dir) throws IOException {
        List<BenchTables.Table> tables = BenchTables.parse(OUTPUT);
        Path file = dir.resolve("StoreBench.tsv");

        BenchTables.writeTsv(tables, file);

        assertThat(BenchTables.readTsv(file)).isEqualTo(tables);
    }

    @Test
    void outputWithoutTablesHasNone() {
        assertThat(BenchTables.parse(List.of("FAILED: lmdb: scan returned 3 rows", "| not | a table |"))).isEmpty();
    }
}

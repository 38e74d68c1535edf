package io.ankusa.store.rocksdb;

import static io.ankusa.store.rocksdb.TestStores.create;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ConfigOptions;
import org.rocksdb.DBOptions;
import org.rocksdb.IndexType;
import org.rocksdb.OptionsUtil;
import org.rocksdb.RocksDBException;

/**
 * The table options every family is opened with, as RocksDB itself recorded them in the store's
 * {@code OPTIONS} file. An unpartitioned filter of a large table file is one block larger than a
 * shard of the block cache: the cache drops it at once and every point read of the file reads the
 * whole filter again (docs/storage.md, "Table options"). No timing here: the options are the cause.
 */
class TableOptionsTest {

    @TempDir
    Path dir;

    @Test
    void everyFamilyHasPartitionedIndexAndFiltersWithAPinnedTopLevel() throws RocksDBException {
        create(dir).close();
        List<ColumnFamilyDescriptor> families = new ArrayList<>();
        try (ConfigOptions config = new ConfigOptions(); DBOptions db = new DBOptions()) {
            OptionsUtil.loadLatestOptions(config, dir.toString(), db, families);
            assertThat(families).extracting(d -> new String(d.getName(), StandardCharsets.UTF_8))
                    .containsExactlyInAnyOrder(TestStores.ITEMS, TestStores.COUNTS, NativeOptions.DEFAULT_FAMILY);
            for (ColumnFamilyDescriptor family : families) {
                String name = new String(family.getName(), StandardCharsets.UTF_8);
                BlockBasedTableConfig table = (BlockBasedTableConfig) family.getOptions().tableFormatConfig();
                assertThat(table.indexType()).as("%s index", name).isEqualTo(IndexType.kTwoLevelIndexSearch);
                assertThat(table.partitionFilters()).as("%s filter partitioned", name).isTrue();
                assertThat(table.metadataBlockSize()).as("%s partition size", name)
                        .isEqualTo(NativeOptions.METADATA_BLOCK_BYTES);
                assertThat(table.cacheIndexAndFilterBlocks()).as("%s metadata in the block cache", name).isTrue();
                assertThat(table.pinTopLevelIndexAndFilter()).as("%s top level pinned", name).isTrue();
                family.getOptions().close();
            }
        }
    }
}

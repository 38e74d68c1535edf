package io.ankusa.store.rocksdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ankusa.store.StoreError;
import io.ankusa.store.StoreException;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The backend settings' parsing: defaults, bounds and refusals. */
class RocksSettingsTest {

    @Test
    void theDefaultsAre8MiBOfMemtablesAnd1MiBOfInfoLog() {
        RocksSettings settings = RocksSettings.parse(Map.of());
        assertThat(settings).isEqualTo(RocksSettings.defaults());
        assertThat(settings.memtableBytes()).isEqualTo(8L << 20);
        assertThat(settings.infoLogBytes()).isEqualTo(1L << 20);
        assertThat(settings.infoLogFileBytes()).as("a quarter: four files").isEqualTo(256L << 10);
    }

    @Test
    void rocksdbMemtableBytesIsReadAtLeast1MiB() {
        assertThat(RocksSettings.parse(Map.of("rocksdb.memtableBytes", "1048576")).memtableBytes()).isEqualTo(1L << 20);
        assertThat(RocksSettings.parse(Map.of("rocksdb.memtableBytes", "67108864")).memtableBytes()).isEqualTo(64L << 20);
        for (String bad : new String[] {"1048575", "0", "-1", "8MiB", ""}) {
            assertThatThrownBy(() -> RocksSettings.parse(Map.of("rocksdb.memtableBytes", bad)))
                    .as(bad).isInstanceOfSatisfying(StoreException.class,
                            e -> assertThat(e.reason()).isEqualTo(StoreError.INVALID_ARGUMENT))
                    .hasMessageContaining("rocksdb.memtableBytes");
        }
    }

    @Test
    void rocksdbInfoLogBytesIsReadAtLeast256KiB() {
        RocksSettings settings = RocksSettings.parse(Map.of("rocksdb.infoLogBytes", "262144"));
        assertThat(settings.infoLogBytes()).isEqualTo(256L << 10);
        assertThat(settings.infoLogFileBytes()).isEqualTo(64L << 10);
        assertThatThrownBy(() -> RocksSettings.parse(Map.of("rocksdb.infoLogBytes", "262143")))
                .isInstanceOfSatisfying(StoreException.class,
                        e -> assertThat(e.reason()).isEqualTo(StoreError.INVALID_ARGUMENT))
                .hasMessageContaining("rocksdb.infoLogBytes");
    }

    @Test
    void anUnknownRocksdbKeyIsRefused() {
        assertThatThrownBy(() -> RocksSettings.parse(Map.of("rocksdb.memtableByte", "1048576")))
                .isInstanceOfSatisfying(StoreException.class,
                        e -> assertThat(e.reason()).isEqualTo(StoreError.INVALID_ARGUMENT));
    }
}

package io.ankusa.store.lmdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ankusa.store.StoreError;
import io.ankusa.store.StoreException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LmdbSettingsTest {

    @Test
    void defaults() {
        LmdbSettings settings = LmdbSettings.defaults();
        assertThat(settings.mapSize()).isEqualTo(64L << 20);
        assertThat(settings.maxReaders()).isEqualTo(512);
        assertThat(settings.resizeWait()).isEqualTo(Duration.ofSeconds(10));
    }

    @Test
    void parsesEachSetting() {
        LmdbSettings settings = LmdbSettings.parse(Map.of(
                "lmdb.mapSize", "1048576", "lmdb.maxReaders", " 64 ", "lmdb.resizeWaitMillis", "0"));
        assertThat(settings).isEqualTo(new LmdbSettings(1L << 20, 64, Duration.ZERO));
    }

    @Test
    void refusesAnUnknownKeyNamingTheKnownOnes() {
        assertThatThrownBy(() -> LmdbSettings.parse(Map.of("rocksdb.blockCache", "1")))
                .isInstanceOfSatisfying(StoreException.class, e -> {
                    assertThat(e.reason()).isEqualTo(StoreError.INVALID_ARGUMENT);
                    assertThat(e).hasMessageContaining("rocksdb.blockCache")
                            .hasMessageContaining("lmdb.mapSize, lmdb.maxReaders, lmdb.resizeWaitMillis");
                });
    }

    @Test
    void refusesValuesThatAreNotNumbersOrOutOfRange() {
        for (Map<String, String> bad : List.of(
                Map.of("lmdb.mapSize", "64MiB"), Map.of("lmdb.mapSize", "1000"), Map.of("lmdb.maxReaders", "0"),
                Map.of("lmdb.resizeWaitMillis", "-1"), Map.of("lmdb.mapSize", ""))) {
            assertThatThrownBy(() -> LmdbSettings.parse(bad)).as("%s", bad)
                    .isInstanceOfSatisfying(StoreException.class,
                            e -> assertThat(e.reason()).isEqualTo(StoreError.INVALID_ARGUMENT));
        }
    }
}

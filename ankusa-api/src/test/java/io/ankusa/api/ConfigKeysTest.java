package io.ankusa.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/** {@link QueueConfig#fromMap} and {@link QueueConfig#fromProperties}: the documented keys, clear errors. */
class ConfigKeysTest {

    private static Map<String, String> all() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("directory", "/var/lib/ankusa");
        m.put("backend", "lmdb");
        m.put("tenants.max", "5_000");
        m.put("batch.max-hooks", "64");
        m.put("batch.max-bytes", "2MiB");
        m.put("payload.max-bytes", "65536");
        m.put("ingest.queue-capacity", "1000");
        m.put("archive", "TRUE");
        m.put("dedupe.window", "2h");
        m.put("audit.retention", "PT720H");
        m.put("housekeeping.interval", "0s");
        m.put("attempts.per-delivery", "5");
        m.put("attempts.retention", "3d");
        m.put("attempts.max-bytes", "64MiB");
        m.put("store.lmdb.mapSize", "1048576");
        return m;
    }

    @Test
    void everyKeySetsItsValue() {
        QueueConfig c = QueueConfig.fromMap(all());
        assertThat(c.directory()).isEqualTo(Path.of("/var/lib/ankusa"));
        assertThat(c.backend()).isEqualTo("lmdb");
        assertThat(c.tenantsMax()).isEqualTo(5_000);
        assertThat(c.batchMaxHooks()).isEqualTo(64);
        assertThat(c.batchMaxBytes()).isEqualTo(2L << 20);
        assertThat(c.payloadMaxBytes()).isEqualTo(65_536);
        assertThat(c.ingestQueueCapacity()).isEqualTo(1000);
        assertThat(c.archive()).isTrue();
        assertThat(c.dedupeWindow()).isEqualTo(Duration.ofHours(2));
        assertThat(c.auditRetention()).isEqualTo(Duration.ofDays(30));
        assertThat(c.housekeepingInterval()).isEqualTo(Duration.ZERO);
        assertThat(c.storeSettings()).containsExactly(Map.entry("lmdb.mapSize", "1048576"));
        assertThat(c.attemptsPerDelivery()).isEqualTo(5);
        assertThat(c.attemptsRetention()).isEqualTo(Duration.ofDays(3));
        assertThat(QueueConfig.builder(Path.of("d")).build().attemptsPerDelivery()).isEqualTo(20);
        assertThat(QueueConfig.builder(Path.of("d")).build().attemptsRetention()).isEqualTo(Duration.ofDays(7));
        assertThat(c.attemptsMaxBytes()).isEqualTo(64L << 20);
        assertThat(QueueConfig.builder(Path.of("d")).build().attemptsMaxBytes()).as("4 GiB by default")
                .isEqualTo(4L << 30);
    }

    @Test
    void theAttemptHistoryBoundIsChecked() {
        assertThatThrownBy(() -> QueueConfig.fromMap(Map.of("directory", "d", "attempts.per-delivery", "1001")))
                .hasMessageContaining("'attempts.per-delivery' = '1001'");
        assertThatThrownBy(() -> QueueConfig.fromMap(Map.of("directory", "d", "attempts.retention", "0s")))
                .hasMessageContaining("'attempts.retention' = '0s'");
        assertThatThrownBy(() -> QueueConfig.fromMap(Map.of("directory", "d", "attempts.max-bytes", "0")))
                .hasMessageContaining("'attempts.max-bytes' = '0'");
    }

    @Test
    void endpointKeysSetTheEndpointSettings() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("directory", "d");
        m.put("endpoint.disable-after", "3d");
        m.put("endpoint.disabled-policy", "dead-letter");
        m.put("endpoint.max-concurrency", "8");
        m.put("endpoint.breaker-failures", "10");
        m.put("endpoint.breaker-interval", "1m");

        EndpointSettings e = QueueConfig.fromMap(m).endpoints();

        assertThat(e).isEqualTo(new EndpointSettings(Duration.ofDays(3), EndpointSettings.DisabledPolicy.DEAD_LETTER, 8, 10,
                Duration.ofMinutes(1)));
        assertThat(QueueConfig.fromMap(Map.of("directory", "d")).endpoints()).isEqualTo(EndpointSettings.DEFAULTS);
        assertThat(EndpointSettings.DEFAULTS.disableAfter()).isEqualTo(Duration.ofDays(5));
        assertThat(EndpointSettings.DEFAULTS.maxConcurrency()).isEqualTo(EndpointSettings.SINK_CONCURRENCY);
        assertThat(QueueConfig.fromMap(Map.of("directory", "d", "endpoint.max-concurrency", "sink")).endpoints().maxConcurrency()).isEqualTo(EndpointSettings.SINK_CONCURRENCY);
        assertThatThrownBy(() -> QueueConfig.fromMap(Map.of("directory", "d", "endpoint.disabled-policy", "drop",
                "endpoint.max-concurrency", "0")))
                .hasMessageContaining("'endpoint.disabled-policy' = 'drop' is not wait or dead-letter")
                .hasMessageContaining("'endpoint.max-concurrency' = '0'");
    }

    @Test
    void keysNotGivenKeepTheBuilderDefaults() {
        QueueConfig c = QueueConfig.fromMap(Map.of("directory", "d"));
        assertThat(c).usingRecursiveComparison().isEqualTo(QueueConfig.builder(Path.of("d")).build());
    }

    @Test
    void propertiesReadTheSameKeys() {
        Properties p = new Properties();
        all().forEach(p::setProperty);
        assertThat(QueueConfig.fromProperties(p)).usingRecursiveComparison().isEqualTo(QueueConfig.fromMap(all()));
    }

    @Test
    void everyUnknownKeyAndBadValueIsNamedAtOnce() {
        Map<String, String> m = new LinkedHashMap<>(Map.of("directory", "d"));
        m.put("tenant.max", "5");
        m.put("batch.max-hooks", "0");
        m.put("archive", "yes");
        m.put("dedupe.window", "soon");
        m.put("payload.max-bytes", "3TiB");
        assertThatThrownBy(() -> QueueConfig.fromMap(m))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unknown key 'tenant.max'")
                .hasMessageContaining("'batch.max-hooks' = '0' is not a whole number in 1..")
                .hasMessageContaining("'archive' = 'yes' is not true or false")
                .hasMessageContaining("'dedupe.window' = 'soon' is not a duration")
                .hasMessageContaining("'payload.max-bytes' = '3TiB' is not a size in bytes")
                .hasMessageContaining("known keys: directory, backend, tenants.max");
    }

    @Test
    void outOfRangeValuesAreRefused() {
        assertThatThrownBy(() -> QueueConfig.fromMap(Map.of("directory", "d", "tenants.max", "4294967295")))
                .hasMessageContaining("'tenants.max' = '4294967295' is not a whole number in 1..4294967294");
        assertThatThrownBy(() -> QueueConfig.fromMap(Map.of("directory", "d", "payload.max-bytes", "2GiB")))
                .hasMessageContaining("'payload.max-bytes' = '2GiB'");
        assertThatThrownBy(() -> QueueConfig.fromMap(Map.of("directory", "d", "dedupe.window", "0ms")))
                .hasMessageContaining("'dedupe.window' = '0ms' is not a duration of at least 1 ms");
        assertThatThrownBy(() -> QueueConfig.fromMap(Map.of("backend", "lmdb")))
                .hasMessageContaining("'directory' is required");
    }

    @Test
    void theDocumentedTableNamesEveryKey() throws IOException {
        String docs = Files.readString(Path.of("..", "docs", "configuration.md"));
        for (String key : ConfigKeys.names()) {
            assertThat(docs).as("docs/configuration.md names %s", key).contains("| `" + key + "` |");
        }
        assertThat(docs).contains("| `store.<setting>` |");
    }

    @Test
    void thePublicKeyListIsTheKeysFromMapAccepts() {
        assertThat(QueueConfig.keys()).first().isEqualTo("directory");
        assertThat(QueueConfig.keys()).containsAll(all().keySet().stream()
                .filter(k -> !k.startsWith(QueueConfig.STORE_KEY_PREFIX)).toList());
        assertThat(QueueConfig.keys()).containsExactlyElementsOf(ConfigKeys.names());
        Map<String, String> everyKey = new LinkedHashMap<>(all());
        everyKey.put("admission.node-max-bytes", "1GiB");
        everyKey.put("events.capacity", "16");
        everyKey.put("endpoint.disable-after", "1d");
        everyKey.put("endpoint.disabled-policy", "wait");
        everyKey.put("endpoint.max-concurrency", "sink");
        everyKey.put("endpoint.breaker-failures", "3");
        everyKey.put("endpoint.breaker-interval", "10s");
        assertThat(everyKey.keySet()).containsAll(QueueConfig.keys());
        assertThat(QueueConfig.fromMap(everyKey).eventCapacity()).isEqualTo(16);
        assertThatThrownBy(() -> QueueConfig.keys().add("x")).isInstanceOf(UnsupportedOperationException.class);
    }
}

package io.ankusa.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.api.QueueConfig;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.json.JsonParserFactory;

/**
 * The configuration metadata the starter ships ({@code META-INF/spring-configuration-metadata.json},
 * written by the configuration processor with the hand-written additions merged in): every queue
 * key of {@link QueueConfig#fromMap}, every property of the starter's properties classes, each with
 * a description, and every one of them in the table of docs/operations.md's "Spring Boot" section.
 */
class ConfigurationMetadataTest {

    private static final List<Class<?>> PROPERTIES_CLASSES = List.of(AnkusaPipelineProperties.class,
            AnkusaHealthProperties.class, AnkusaMetricsProperties.class, AnkusaOutboxProperties.class,
            AnkusaAdminProperties.class);

    @Test
    void everyQueueKeyOfFromMapIsListedWithADescription() throws IOException {
        Map<String, Map<String, Object>> properties = properties();
        for (String key : QueueConfig.keys()) {
            assertThat(properties).as("metadata lists ankusa.%s", key).containsKey("ankusa." + key);
            assertThat(description(properties, "ankusa." + key)).as("ankusa.%s has a description", key).isNotBlank();
        }
        String store = "ankusa." + QueueConfig.STORE_KEY_PREFIX.substring(0, QueueConfig.STORE_KEY_PREFIX.length() - 1);
        assertThat(properties).containsKey(store);
        assertThat(properties.get(store).get("type")).asString().startsWith("java.util.Map");
        assertThat(properties.get("ankusa.backend")).containsEntry("defaultValue", "rocksdb");
    }

    @Test
    void everyPipelineHealthMetricsAndOutboxPropertyIsListedWithADescription() throws IOException {
        Map<String, Map<String, Object>> properties = properties();
        List<String> names = starterPropertyNames();
        assertThat(names).as("the properties classes' setters").hasSizeGreaterThan(20)
                .contains("ankusa.pipeline.mode", "ankusa.health.max-tick-silence", "ankusa.metrics.top-tenants",
                        "ankusa.admin.path", "ankusa.admin.enabled");
        for (String name : names) {
            assertThat(properties).as("metadata lists %s", name).containsKey(name);
            assertThat(description(properties, name)).as("%s has a description", name).isNotBlank()
                    .doesNotContain("{@");
        }
        assertThat(properties.get("ankusa.pipeline.mode")).containsEntry("defaultValue", "deliver");
        assertThat(properties.get("ankusa.pipeline.concurrency")).containsEntry("defaultValue", 256);
        assertThat(properties.get("ankusa.health.max-tick-silence")).containsEntry("defaultValue", "1m");
        assertThat(properties.get("ankusa.admin.path")).containsEntry("defaultValue", "/ankusa");
        assertThat(properties.get("ankusa.pipeline.enabled")).containsKey("deprecation");
        assertThat(map(properties.get("ankusa.pipeline.enabled").get("deprecation")))
                .containsEntry("replacement", "ankusa.pipeline.mode");
    }

    @Test
    void everyPropertyIsInTheSpringBootTableOfTheOperationsGuide() throws IOException {
        String section = springBootSection(Files.readString(Path.of("..", "docs", "operations.md")));
        Map<String, Map<String, Object>> properties = properties();
        assertThat(properties).hasSizeGreaterThan(40);
        for (String name : properties.keySet()) {
            assertThat(name).startsWith("ankusa.");
            String shown = name.equals("ankusa.store") ? "ankusa.store.<setting>" : name;
            assertThat(section).as("docs/operations.md, Spring Boot, has a row for %s", shown)
                    .contains("| `" + shown + "` |");
        }
    }

    private static String springBootSection(String guide) {
        int start = guide.indexOf("\n## Spring Boot\n");
        assertThat(start).as("docs/operations.md has a Spring Boot section").isNotNegative();
        int end = guide.indexOf("\n## ", start + 1);
        return end < 0 ? guide.substring(start) : guide.substring(start, end);
    }

    /** The kebab-case names of the properties classes' setters, under each class's prefix. */
    private static List<String> starterPropertyNames() {
        List<String> names = new ArrayList<>();
        for (Class<?> type : PROPERTIES_CLASSES) {
            String prefix = type.getAnnotation(ConfigurationProperties.class).value();
            for (Method method : type.getDeclaredMethods()) {
                if (Modifier.isPublic(method.getModifiers()) && method.getName().startsWith("set")
                        && method.getParameterCount() == 1) {
                    names.add(prefix + "." + kebab(method.getName().substring(3)));
                }
            }
        }
        Collections.sort(names);
        return names;
    }

    private static String kebab(String camel) {
        return camel.replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase(Locale.ROOT);
    }

    private static String description(Map<String, Map<String, Object>> properties, String name) {
        Object description = properties.get(name).get("description");
        return description == null ? "" : description.toString();
    }

    /** The starter's properties, by name, read from the class path as an IDE reads them. */
    private static Map<String, Map<String, Object>> properties() throws IOException {
        Map<String, Map<String, Object>> byName = new LinkedHashMap<>();
        List<URL> files = Collections.list(ConfigurationMetadataTest.class.getClassLoader()
                .getResources("META-INF/spring-configuration-metadata.json"));
        for (URL file : files) {
            String json;
            try (InputStream in = file.openStream()) {
                json = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
            Object listed = JsonParserFactory.getJsonParser().parseMap(json).get("properties");
            if (listed instanceof List<?> list) {
                for (Object entry : list) {
                    Map<String, Object> property = map(entry);
                    String name = property.get("name").toString();
                    if (name.startsWith("ankusa.")) {
                        byName.put(name, property);
                    }
                }
            }
        }
        assertThat(byName).as("the starter's metadata is on the class path").isNotEmpty();
        return byName;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object value) {
        assertThat(value).isInstanceOf(Map.class);
        return (Map<String, Object>) value;
    }
}

package io.ankusa.cli.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ankusa.api.Hook;
import io.ankusa.api.QueueConfig;
import io.ankusa.api.QueueStats;
import io.ankusa.queue.Queue;
import io.ankusa.store.StoreCorruptionException;
import io.ankusa.store.spi.FamilyCatalog;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A damaged family catalog, or a store whose data file is gone, is corruption to the command line
 * (exit 8) and to the library alike: both go through the one decision of
 * {@link FamilyCatalog#inspect}. Nothing is rewritten by the refused attempts, and once the damage
 * is undone the store opens with every hook.
 */
class StoreDamageCommandTest {

    @TempDir
    Path dir;

    /** What happens to the catalog. */
    enum CatalogDamage {
        RANDOM_BYTES, EMPTY, CUT_SHORT, KIND_EDITED, DELETED;

        void apply(Path catalog) throws IOException {
            byte[] text = Files.readAllBytes(catalog);
            switch (this) {
                case RANDOM_BYTES -> {
                    byte[] noise = new byte[200];
                    new Random(12).nextBytes(noise);
                    Files.write(catalog, noise);
                }
                case EMPTY -> Files.write(catalog, new byte[0]);
                case CUT_SHORT -> Files.write(catalog, Arrays.copyOf(text, text.length / 2));
                case KIND_EDITED -> {
                    String edited = new String(text, StandardCharsets.UTF_8).replace("counters COUNTER", "counters PLAIN");
                    assertThat(edited.getBytes(StandardCharsets.UTF_8)).isNotEqualTo(text);
                    Files.writeString(catalog, edited);
                }
                case DELETED -> Files.delete(catalog);
            }
        }
    }

    static Stream<Arguments> backendsAndDamage() {
        return Stream.of("rocksdb", "lmdb").flatMap(backend -> Stream.of(CatalogDamage.values())
                .map(damage -> Arguments.of(backend, damage)));
    }

    /** A store with 5 hooks over 2 tenants, written through the queue; returns its stats. */
    private QueueStats fill(Path store, String backend) {
        try (Queue queue = Queue.open(config(store, backend))) {
            List<CompletableFuture<?>> receipts = new ArrayList<>();
            for (String tenant : List.of("acme", "acme", "acme", "globex", "globex")) {
                receipts.add(queue.ingest(Hook.builder().id("h" + receipts.size()).sourceId("damage-test")
                        .tenantId(tenant).payload("{}").sinks(0).build()));
            }
            CompletableFuture.allOf(receipts.toArray(CompletableFuture<?>[]::new)).join();
            return queue.stats();
        }
    }

    private static QueueConfig config(Path store, String backend) {
        return QueueConfig.builder(store).backend(backend).housekeepingInterval(Duration.ZERO).build();
    }

    private static void assertRefusedAsCorrupt(Path store, String backend, String naming) {
        for (String command : List.of("stats", "tenants", "dlq")) {
            CommandRun run = CommandRun.of(command, "--store", store.toString(), "--backend", backend);
            assertThat(run.exitCode()).as("'ankusa %s' exit code; stderr: %s", command, run.err())
                    .isEqualTo(ExitCode.STORE_CORRUPT.code());
            assertThat(run.err()).contains(naming);
        }
        assertThatThrownBy(() -> Queue.open(config(store, backend)).close())
                .as("the library refuses what the command line refuses")
                .isInstanceOf(StoreCorruptionException.class)
                .hasMessageContaining(naming);
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("backendsAndDamage")
    void aDamagedOrDeletedFamilyCatalogIsCorruptionToTheCliAndTheApiAlike(String backend, CatalogDamage damage) throws IOException {
        Path store = dir.resolve("store");
        QueueStats before = fill(store, backend);
        Path catalog = store.resolve(FamilyCatalog.FILE_NAME);
        byte[] intact = Files.readAllBytes(catalog);
        damage.apply(catalog);
        byte[] damaged = Files.exists(catalog) ? Files.readAllBytes(catalog) : null;

        assertRefusedAsCorrupt(store, backend, FamilyCatalog.FILE_NAME);

        assertThat(Files.exists(catalog) ? Files.readAllBytes(catalog) : null)
                .as("a refused open rewrites nothing").isEqualTo(damaged);
        Files.write(catalog, intact);
        try (Queue queue = Queue.open(config(store, backend))) {
            assertThat(queue.stats()).as("every hook is still there").isEqualTo(before);
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"lmdb", "rocksdb-CURRENT", "rocksdb-MANIFEST"})
    void storeWhoseDataFileIsMissingIsRefusedNotRecreated(String variant) throws IOException {
        String backend = variant.startsWith("lmdb") ? "lmdb" : "rocksdb";
        Path store = dir.resolve("store");
        fill(store, backend);
        Path missing = switch (variant) {
            case "lmdb" -> store.resolve("data.mdb");
            case "rocksdb-CURRENT" -> store.resolve("CURRENT");
            default -> store.resolve(Files.readString(store.resolve("CURRENT")).trim());
        };
        Path aside = dir.resolve("aside");
        Files.move(missing, aside);

        assertRefusedAsCorrupt(store, backend, String.valueOf(missing.getFileName()));

        assertThat(missing).as("never recreated empty").doesNotExist();
        try (Stream<Path> files = Files.list(store)) {
            assertThat(files.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("MANIFEST-")))
                    .as("no new manifest").hasSizeLessThanOrEqualTo(1);
        }
        Files.move(aside, missing);
        try (Queue queue = Queue.open(config(store, backend))) {
            assertThat(queue.tenantCount()).isEqualTo(2);
        }
    }
}

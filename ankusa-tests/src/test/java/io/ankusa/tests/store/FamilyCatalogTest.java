package io.ankusa.tests.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ankusa.store.Durability;
import io.ankusa.store.FamilySpec;
import io.ankusa.store.Store;
import io.ankusa.store.StoreCorruptionException;
import io.ankusa.store.StoreError;
import io.ankusa.store.StoreException;
import io.ankusa.store.StoreOptions;
import io.ankusa.store.Stores;
import io.ankusa.store.WriteBatch;
import io.ankusa.store.spi.FamilyCatalog;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The family catalog's format and the open decision it drives, on the real backends. */
class FamilyCatalogTest {

    private static final List<FamilySpec> FAMILIES = List.of(FamilySpec.plain("rows"), FamilySpec.counter("counts"));

    @TempDir
    Path dir;

    private Path store(String backend) {
        Path store = dir.resolve(backend);
        try (Store s = Stores.open(backend, StoreOptions.create(store, FAMILIES))) {
            s.commit(new WriteBatch().put("rows", new byte[] {1}, new byte[] {2}), Durability.SYNC);
        }
        return store;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void everyCutAndEveryFlippedByteOfACatalogIsRefusedAsCorruption(String backend) throws IOException {
        Path store = store(backend);
        Path catalog = store.resolve(FamilyCatalog.FILE_NAME);
        byte[] intact = Files.readAllBytes(catalog);
        assertThat(new String(intact, StandardCharsets.UTF_8)).startsWith("ankusa-families 2\n").contains("@crc32c ");
        for (int length = 0; length < intact.length; length++) {
            Files.write(catalog, Arrays.copyOf(intact, length));
            int cut = length;
            assertThatThrownBy(() -> FamilyCatalog.inspect(store)).as("cut to %d of %d bytes", cut, intact.length)
                    .isInstanceOf(StoreCorruptionException.class).hasMessageContaining(FamilyCatalog.FILE_NAME);
        }
        for (int at = 0; at < intact.length; at++) {
            byte[] flipped = intact.clone();
            flipped[at] ^= 0x01;
            Files.write(catalog, flipped);
            int position = at;
            assertThatThrownBy(() -> FamilyCatalog.inspect(store)).as("byte %d flipped", position)
                    .isInstanceOf(StoreCorruptionException.class);
        }
        Files.write(catalog, intact);
        assertThat(FamilyCatalog.inspect(store)).hasValueSatisfying(c -> {
            assertThat(c.created()).isTrue();
            assertThat(c.writer()).contains(backend);
            assertThat(c.kinds()).containsOnlyKeys("rows", "counts");
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aCatalogOfANewerCatalogFormatIsANewerReleaseNotCorruption(String backend) throws IOException {
        Path store = store(backend);
        Path catalog = store.resolve(FamilyCatalog.FILE_NAME);
        String text = Files.readString(catalog);
        String body = text.substring(0, text.indexOf("@crc32c ")).replace("ankusa-families 2", "ankusa-families 3");
        Files.writeString(catalog, body + "@crc32c " + crc32c(body) + "\n");
        assertThatThrownBy(() -> Stores.open(backend, StoreOptions.existing(store, FAMILIES)))
                .isInstanceOfSatisfying(StoreException.class,
                        e -> assertThat(e.reason()).isEqualTo(StoreError.FAMILY_MISMATCH))
                .hasMessageContaining("newer release");
    }

    private static String crc32c(String body) {
        CRC32C crc = new CRC32C();
        crc.update(body.getBytes(StandardCharsets.UTF_8));
        return HexFormat.of().toHexDigits((int) crc.getValue());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aCatalogOfAnEarlierBuildStillOpensAndIsRewrittenWithAChecksum(String backend) throws IOException {
        Path store = store(backend);
        Path catalog = store.resolve(FamilyCatalog.FILE_NAME);
        Files.writeString(catalog, "@backend " + backend + "\nrows PLAIN\ncounts COUNTER\n");
        assertThat(FamilyCatalog.inspect(store)).hasValueSatisfying(c -> assertThat(c.created()).isTrue());
        try (Store s = Stores.open(backend, StoreOptions.existing(store, FAMILIES))) {
            assertThat(s.get("rows", new byte[] {1})).isPresent();
        }
        assertThat(Files.readString(catalog)).startsWith("ankusa-families 2\n").contains("@state created\n");
        Files.writeString(catalog, "@backend " + backend + "\nrows PLAIN\ncounts COUNT\n");
        assertThatThrownBy(() -> FamilyCatalog.inspect(store)).isInstanceOf(StoreCorruptionException.class);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aCreationInterruptedBeforeTheDataFilesExistedIsNoStoreAndCreatingFinishesIt(String backend) {
        Path store = dir.resolve("new");
        assertThat(FamilyCatalog.reconcile(store, backend, FAMILIES, true)).as("a new store").isFalse();
        assertThat(FamilyCatalog.inspect(store)).hasValueSatisfying(c -> assertThat(c.created()).isFalse());

        assertThatThrownBy(() -> Stores.open(backend, StoreOptions.existing(store, FAMILIES)))
                .isInstanceOfSatisfying(StoreException.class, e -> assertThat(e.reason()).isEqualTo(StoreError.NOT_FOUND));
        Stores.open(backend, StoreOptions.create(store, FAMILIES)).close();
        assertThat(FamilyCatalog.inspect(store)).hasValueSatisfying(c -> assertThat(c.created()).isTrue());
        Stores.open(backend, StoreOptions.existing(store, FAMILIES)).close();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aDirectoryOfDataFilesWithoutACatalogIsCorruptionAnEmptyOneNoStore(String backend) throws IOException {
        assertThat(FamilyCatalog.inspect(dir.resolve("nothing"))).isEmpty();
        Files.writeString(Files.createDirectories(dir.resolve("unrelated")).resolve("notes.txt"), "mine");
        assertThat(FamilyCatalog.inspect(dir.resolve("unrelated"))).isEmpty();

        Path store = store(backend);
        Files.delete(store.resolve(FamilyCatalog.FILE_NAME));
        assertThatThrownBy(() -> Stores.open(backend, StoreOptions.create(store, FAMILIES)))
                .isInstanceOf(StoreCorruptionException.class).hasMessageContaining("is missing");
        assertThat(store.resolve(FamilyCatalog.FILE_NAME)).as("not recreated").doesNotExist();
    }
}

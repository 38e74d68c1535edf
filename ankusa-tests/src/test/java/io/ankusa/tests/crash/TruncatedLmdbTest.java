package io.ankusa.tests.crash;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.store.Durability;
import io.ankusa.store.Store;
import io.ankusa.store.StoreOptions;
import io.ankusa.store.Stores;
import io.ankusa.store.WriteBatch;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A truncated LMDB data file must be refused at open with a corruption error; LMDB itself maps it
 * and dies with SIGBUS on the first page past the end, killing the JVM. The opens run in a child
 * JVM ({@link OpeningLmdbStores}), so a regression shows as a dead child, not a dead test runner.
 */
class TruncatedLmdbTest {

    private static final int PAGE = 4096;

    @TempDir
    Path tempDir;

    @Test
    void truncatedLmdbFileIsRefusedWithoutCrashingTheJvm() throws IOException {
        Path intact = tempDir.resolve("intact");
        try (Store store = Stores.open("lmdb", StoreOptions.create(intact, OpeningLmdbStores.FAMILIES))) {
            for (int from = 0; from < 20_000; from += 1_000) {
                WriteBatch batch = new WriteBatch();
                for (int i = from; i < from + 1_000; i++) {
                    batch.put("rows", String.format("row-%08d", i).getBytes(StandardCharsets.UTF_8), new byte[100]);
                }
                store.commit(batch, Durability.SYNC);
            }
        }
        long size = Files.size(intact.resolve("data.mdb"));
        assertThat(size).as("a store of many pages").isGreaterThan(100L * PAGE);
        List<Long> cuts = List.of(100L, (long) PAGE, 2L * PAGE + 1, size / 4, size / 2, size - PAGE, size - 1);
        List<String> args = new ArrayList<>();
        args.add(intact.toString());
        for (long cut : cuts) {
            Path copy = copyOf(intact, tempDir.resolve("cut-" + cut));
            try (RandomAccessFile file = new RandomAccessFile(copy.resolve("data.mdb").toFile(), "rw")) {
                file.setLength(cut);
            }
            args.add(copy.toString());
        }

        ChildJvm.Finished child;
        try (ChildJvm jvm = ChildJvm.start(OpeningLmdbStores.class, tempDir.resolve("child.err"),
                args.toArray(String[]::new))) {
            child = jvm.awaitExit();
            assertThat(child.exitCode()).as("the child JVM survived every open (a signal gives 128+n)\n%s",
                    jvm.stderrTail()).isZero();
        }
        assertThat(child.lines()).hasSize(args.size());
        assertThat(child.lines().get(0)).isEqualTo("opened " + intact + " 20000");
        for (int i = 0; i < cuts.size(); i++) {
            assertThat(child.lines().get(i + 1)).as("truncated at %d of %d bytes", cuts.get(i), size)
                    .startsWith("refused " + args.get(i + 1) + " CORRUPTION ")
                    .contains("data.mdb");
        }
    }

    private static Path copyOf(Path from, Path to) throws IOException {
        Files.createDirectories(to);
        try (Stream<Path> files = Files.list(from)) {
            for (Path f : files.toList()) {
                if (!f.getFileName().toString().equals("ankusa.lock")) {
                    Files.copy(f, to.resolve(f.getFileName()), StandardCopyOption.COPY_ATTRIBUTES);
                }
            }
        }
        return to;
    }
}

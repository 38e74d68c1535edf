package io.ankusa.store.lmdb;

import static io.ankusa.store.lmdb.TestStores.PLAIN;
import static io.ankusa.store.lmdb.TestStores.utf8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.ankusa.store.Durability;
import io.ankusa.store.Store;
import io.ankusa.store.StoreError;
import io.ankusa.store.StoreException;
import io.ankusa.store.StoreOptions;
import io.ankusa.store.WriteBatch;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A full device on a real tiny filesystem: a 4 MiB tmpfs mounted for the test. Mounting needs
 * root (or CAP_SYS_ADMIN) on Linux; elsewhere the test is skipped, saying why.
 */
class FullDiskTest {

    private static final int VALUE_BYTES = 64 * 1024;

    @TempDir
    Path dir;

    private Path mount;

    @AfterEach
    void unmount() throws Exception {
        if (mount != null) {
            run("umount", mount.toString());
        }
    }

    private static boolean run(String... command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        process.getInputStream().readAllBytes();
        return process.waitFor(30, TimeUnit.SECONDS) && process.exitValue() == 0;
    }

    @Test
    void lmdbOnAFullDiskSaysNoSpaceKeepsEveryAckedCommitAndWritesOnceSpaceIsBack() throws Exception {
        Path target = Files.createDirectories(dir.resolve("tiny"));
        boolean mounted;
        try {
            mounted = System.getProperty("os.name").startsWith("Linux")
                    && run("mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", target.toString());
        } catch (IOException e) {
            mounted = false;
        }
        assumeTrue(mounted, "cannot mount a tmpfs here (needs Linux and root); the full-disk path is untested");
        mount = target;
        Path ballast = target.resolve("ballast");
        Files.write(ballast, new byte[512 * 1024]);
        Path storeDir = target.resolve("store");
        int acknowledged = 0;
        StoreException refused = null;
        try (Store store = TestStores.open(StoreOptions.create(storeDir, TestStores.FAMILIES))) {
            for (int i = 0; i < 200 && refused == null; i++) {
                try {
                    store.commit(new WriteBatch().put(PLAIN, key(i), value(i)), Durability.SYNC);
                    acknowledged++;
                } catch (StoreException e) {
                    refused = e;
                }
            }
            if (refused == null) {
                fail("200 commits of 64 KiB fitted on a 4 MiB filesystem");
            }
            assertThat(refused.reason()).as(refused.toString()).isEqualTo(StoreError.NO_SPACE);
            assertThat(refused.getMessage()).contains("no space left").contains(storeDir.toString());
            for (int i = 0; i < acknowledged; i++) {
                assertThat(store.get(PLAIN, key(i))).as("acknowledged row %d", i).hasValue(value(i));
            }
            Files.delete(ballast);
        } catch (StoreException closeFailed) {
            // close syncs; a store whose sync failed may refuse it: the reopen below is what counts
            assertThat(refused).as("only a close after the refusal may fail: " + closeFailed).isNotNull();
        }
        if (Files.exists(ballast)) {
            Files.delete(ballast);
        }
        try (Store store = TestStores.open(StoreOptions.existing(storeDir, TestStores.FAMILIES))) {
            for (int i = 0; i < acknowledged; i++) {
                assertThat(store.get(PLAIN, key(i))).as("acknowledged row %d after reopen", i).hasValue(value(i));
            }
            store.commit(new WriteBatch().put(PLAIN, utf8("after"), value(0)), Durability.SYNC);
            assertThat(store.get(PLAIN, utf8("after"))).isPresent();
        }
    }

    private static byte[] key(int i) {
        return utf8(String.format("row-%04d", i));
    }

    private static byte[] value(int i) {
        byte[] value = new byte[VALUE_BYTES];
        value[0] = (byte) i;
        value[VALUE_BYTES - 1] = (byte) (i >> 8);
        return value;
    }
}

package io.ankusa.store.rocksdb;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A small tmpfs mounted for one test ({@code mount -t tmpfs -o size=…}), so that "no space left on
 * device" is the real ENOSPC of a real file system. Mounting needs root (CAP_SYS_ADMIN): where it
 * is refused the test is skipped with the reason, never passed. Unmount in {@code @AfterEach}.
 */
final class TinyFileSystem implements AutoCloseable {

    private final Path mountPoint;

    private TinyFileSystem(Path mountPoint) {
        this.mountPoint = mountPoint;
    }

    /** Mounts a tmpfs of {@code megabytes} MiB on {@code mountPoint} (created), or aborts the test with why not. */
    static TinyFileSystem mount(Path mountPoint, int megabytes) throws IOException, InterruptedException {
        Files.createDirectories(mountPoint);
        Process mount = new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=" + megabytes + "m", "tmpfs",
                mountPoint.toString()).redirectErrorStream(true).start();
        String output = new String(mount.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        int exit = mount.waitFor();
        assumeTrue(exit == 0, "cannot mount a tmpfs to fill (needs root or CAP_SYS_ADMIN): exit " + exit + ": " + output);
        return new TinyFileSystem(mountPoint);
    }

    Path root() {
        return mountPoint;
    }

    /** Writes {@code file} in 64 KiB chunks until the file system refuses with ENOSPC; returns the bytes written. */
    long fill(Path file) throws IOException {
        byte[] chunk = new byte[64 << 10];
        long written = 0;
        try (OutputStream out = Files.newOutputStream(file)) {
            while (true) {
                out.write(chunk);
                written += chunk.length;
            }
        } catch (IOException e) {
            if (e.getMessage() == null || !e.getMessage().contains("No space left on device")) {
                throw e;
            }
        }
        // The stream's close may have failed to write its last chunk; what is on disk is what counts.
        return Files.exists(file) ? Files.size(file) : written;
    }

    /** Unmounts (lazily, so a file still open elsewhere cannot keep the mount). */
    @Override
    public void close() throws IOException {
        Process umount = new ProcessBuilder(List.of("umount", "-l", mountPoint.toString())).redirectErrorStream(true)
                .start();
        String output = new String(umount.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        try {
            if (umount.waitFor() != 0) {
                throw new IOException("umount " + mountPoint + " failed: " + output);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while unmounting " + mountPoint, e);
        }
    }
}

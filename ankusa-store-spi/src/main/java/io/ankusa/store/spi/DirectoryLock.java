package io.ankusa.store.spi;

import io.ankusa.store.StoreError;
import io.ankusa.store.StoreException;
import io.ankusa.store.StoreLockedException;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * An exclusive lock on a store directory (file {@value #FILE_NAME}), held while the store is
 * open, so that a second process (or a second open in this one) is refused with
 * {@link StoreLockedException} instead of sharing files it must not share.
 */
public final class DirectoryLock implements AutoCloseable {

    /** The lock file's name inside a store directory. */
    public static final String FILE_NAME = "ankusa.lock";

    private final FileChannel channel;
    private final FileLock lock;

    private DirectoryLock(FileChannel channel, FileLock lock) {
        this.channel = channel;
        this.lock = lock;
    }

    /**
     * Takes the lock or throws {@link StoreLockedException} at once.
     *
     * @param directory the store's directory
     * @return the held lock; close it to release
     */
    public static DirectoryLock acquire(Path directory) {
        Path file = directory.resolve(FILE_NAME);
        FileChannel channel = null;
        try {
            Files.createDirectories(directory);
            channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            FileLock lock = channel.tryLock();
            if (lock == null) {
                throw new StoreLockedException("store " + directory + " is in use by another process");
            }
            return new DirectoryLock(channel, lock);
        } catch (OverlappingFileLockException e) {
            closeQuietly(channel);
            throw new StoreLockedException("store " + directory + " is already open in this process", e);
        } catch (IOException e) {
            closeQuietly(channel);
            throw new StoreException(StoreError.IO, "cannot lock " + file + ": " + e.getMessage(), e);
        } catch (RuntimeException e) {
            closeQuietly(channel);
            throw e;
        }
    }

    /** Releases the lock. */
    @Override
    public void close() {
        try {
            lock.release();
        } catch (IOException e) {
            // The channel close below releases it as well.
        }
        closeQuietly(channel);
    }

    private static void closeQuietly(FileChannel channel) {
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException ignored) {
                // nothing left to release
            }
        }
    }
}

package io.ankusa.store.rocksdb;

import io.ankusa.store.StoreCorruptionException;
import io.ankusa.store.StoreError;
import io.ankusa.store.StoreException;
import io.ankusa.store.StoreLockedException;
import java.util.Locale;
import org.rocksdb.RocksDBException;
import org.rocksdb.Status;

/** Turns a {@link RocksDBException} into the SPI's exception with a machine-readable reason. */
final class RocksFailures {

    private RocksFailures() {
    }

    /**
     * The SPI exception for {@code e}: a checksum or decode failure becomes
     * {@link StoreCorruptionException}, RocksDB's own {@code LOCK} file held elsewhere becomes
     * {@link StoreLockedException}, a full file system {@link StoreError#NO_SPACE} (its message
     * says "no space"), anything else {@link StoreError#IO}.
     *
     * @param action what was being done, for the message ("scan of family 'index'")
     */
    static StoreException translate(String action, RocksDBException e) {
        Status status = e.getStatus();
        Status.Code code = status == null ? null : status.getCode();
        String message = action + " failed: " + e.getMessage();
        if (code == Status.Code.Corruption) {
            return new StoreCorruptionException(action + " failed: the store is corrupt: " + e.getMessage(), e);
        }
        if (code == Status.Code.IOError && isLockFailure(e.getMessage())) {
            return new StoreLockedException(message, e);
        }
        if (isNoSpace(status, e.getMessage())) {
            return new StoreException(StoreError.NO_SPACE, action
                    + " failed: no space left on the device of the store (free space, then retry): " + e.getMessage(),
                    e);
        }
        return new StoreException(StoreError.IO, message, e);
    }

    /** RocksDB's {@code NoSpace} subcode, or the operating system's ENOSPC text in an I/O error. */
    private static boolean isNoSpace(Status status, String message) {
        if (status != null && status.getSubCode() == Status.SubCode.NoSpace) {
            return true;
        }
        return message != null && message.toLowerCase(Locale.ROOT).contains("no space left on device");
    }

    private static boolean isLockFailure(String message) {
        if (message == null) {
            return false;
        }
        String text = message.toLowerCase(Locale.ROOT);
        return text.contains("lock file") || text.contains("lock hold");
    }
}

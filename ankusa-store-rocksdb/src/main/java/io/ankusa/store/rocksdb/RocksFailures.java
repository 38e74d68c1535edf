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
     * {@link StoreLockedException}, anything else {@link StoreError#IO}.
     *
     * @param action what was being done, for the message ("scan of family 'index'")
     */
    static StoreException translate(String action, RocksDBException e) {
        Status status = e.getStatus();
        Status.Code code = status == null ? null : status.getCode();
        String message = action + " failed: " + e.getMessage();
        if (code == Status.Code.Corruption) {
            return new StoreCorruptionException(message, e);
        }
        if (code == Status.Code.IOError && isLockFailure(e.getMessage())) {
            return new StoreLockedException(message, e);
        }
        return new StoreException(StoreError.IO, message, e);
    }

    private static boolean isLockFailure(String message) {
        if (message == null) {
            return false;
        }
        String text = message.toLowerCase(Locale.ROOT);
        return text.contains("lock file") || text.contains("lock hold");
    }
}

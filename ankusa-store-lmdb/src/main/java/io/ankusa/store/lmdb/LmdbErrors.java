package io.ankusa.store.lmdb;

import io.ankusa.store.StoreClosedException;
import io.ankusa.store.StoreCorruptionException;
import io.ankusa.store.StoreError;
import io.ankusa.store.StoreException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.lmdbjava.Dbi;
import org.lmdbjava.Env;
import org.lmdbjava.LmdbException;
import org.lmdbjava.LmdbNativeException;
import org.lmdbjava.Txn;

/** Turns lmdbjava's exceptions into the store's, so that no {@link LmdbException} leaves the backend. */
final class LmdbErrors {

    /** Linux errno values LMDB passes through. */
    private static final int EIO = 5;
    private static final int ENOSPC = 28;
    private static final int EDQUOT = 122;

    /** Below this many free bytes, an {@code EIO} from a write is taken for a full device. */
    static final long NEARLY_FULL = 1L << 20;

    private LmdbErrors() {
    }

    /** The store exception for {@code e}, raised while doing {@code action} (for the message). */
    static StoreException translate(LmdbException e, String action) {
        String message = action + ": " + e.getMessage();
        if (e instanceof LmdbNativeException.PageCorruptedException
                || e instanceof LmdbNativeException.PageNotFoundException
                || e instanceof Env.FileInvalidException
                || e instanceof Dbi.IncompatibleException) {
            return new StoreCorruptionException(message, e);
        }
        if (e instanceof Env.AlreadyClosedException) {
            return new StoreClosedException(message, e);
        }
        if (e instanceof Dbi.BadValueSizeException) {
            return new StoreException(StoreError.INVALID_ARGUMENT, action
                    + ": a key is empty or longer than LMDB's limit of " + LmdbStore.MAX_KEY_BYTES + " bytes", e);
        }
        if (e instanceof Env.ReadersFullException) {
            return new StoreException(StoreError.IO, action + ": too many reads and scans are open at once;"
                    + " close finished scans or raise " + LmdbSettings.MAX_READERS, e);
        }
        if (e instanceof Txn.TxFullException) {
            return new StoreException(StoreError.IO, action
                    + ": the batch dirties more pages than one LMDB transaction can hold; split it", e);
        }
        return new StoreException(StoreError.IO, message, e);
    }

    /**
     * As {@link #translate(LmdbException, String)}, for a call that writes to the store in
     * {@code directory}: an {@code ENOSPC} or {@code EDQUOT}, or an {@code EIO} while the device
     * has less than {@value #NEARLY_FULL} bytes free, is {@link StoreError#NO_SPACE}. LMDB reports
     * a write cut short by a full device as {@code EIO} ("short write, filesystem full?" in
     * {@code mdb.c}), which would otherwise read as a failing disk.
     */
    static StoreException translate(LmdbException e, String action, Path directory) {
        if (e instanceof LmdbNativeException nativeError) {
            int errno = nativeError.getResultCode();
            long free = usableSpace(directory);
            if (errno == ENOSPC || errno == EDQUOT || errno == EIO && free >= 0 && free < NEARLY_FULL) {
                return new StoreException(StoreError.NO_SPACE, action + ": no space left on the device holding "
                        + directory + " (" + (free < 0 ? "unknown" : free) + " bytes free; LMDB reported "
                        + e.getMessage().trim() + "). Nothing of this call was written; earlier commits stand."
                        + " Free space, then retry", e);
            }
        }
        return translate(e, action);
    }

    private static long usableSpace(Path directory) {
        try {
            return Files.getFileStore(directory).getUsableSpace();
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }
}

package io.ankusa.store.lmdb;

import io.ankusa.store.StoreClosedException;
import io.ankusa.store.StoreCorruptionException;
import io.ankusa.store.StoreError;
import io.ankusa.store.StoreException;
import org.lmdbjava.Dbi;
import org.lmdbjava.Env;
import org.lmdbjava.LmdbException;
import org.lmdbjava.LmdbNativeException;
import org.lmdbjava.Txn;

/** Turns lmdbjava's exceptions into the store's, so that no {@link LmdbException} leaves the backend. */
final class LmdbErrors {

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
}

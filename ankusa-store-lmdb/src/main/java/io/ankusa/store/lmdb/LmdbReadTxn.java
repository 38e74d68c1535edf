package io.ankusa.store.lmdb;

import org.lmdbjava.Cursor;
import org.lmdbjava.Env;
import org.lmdbjava.Txn;

/**
 * One LMDB read transaction with one cursor over a family: what an {@link LmdbScan} and an
 * {@link LmdbCursor} read through. It ends once — the cursor closed, then the transaction, the
 * transaction even when closing the cursor throws — and then tells {@code ended}, which gives back
 * the reader the store admitted.
 */
final class LmdbReadTxn {

    private final Runnable ended;
    private Txn<byte[]> txn;
    private Cursor<byte[]> cursor;
    private boolean live = true;

    private LmdbReadTxn(Runnable ended) {
        this.ended = ended;
    }

    /**
     * Opens a read transaction and a cursor over {@code family}. {@code ended} runs once when it
     * ends, also when this method throws.
     */
    static LmdbReadTxn open(Env<byte[]> env, Family family, Runnable ended) {
        LmdbReadTxn opened = new LmdbReadTxn(ended);
        try {
            opened.txn = env.txnRead();
            opened.cursor = family.dbi().openCursor(opened.txn);
        } catch (RuntimeException | Error e) {
            opened.end();
            throw e;
        }
        return opened;
    }

    /** The cursor, for reads until {@link #end}. */
    Cursor<byte[]> cursor() {
        return cursor;
    }

    /** Closes the cursor and the transaction and runs {@code ended}, the first time only. */
    void end() {
        if (!live) {
            return;
        }
        live = false;
        try {
            if (cursor != null) {
                cursor.close();
            }
        } finally {
            try {
                if (txn != null) {
                    txn.close();
                }
            } finally {
                cursor = null;
                txn = null;
                ended.run();
            }
        }
    }
}

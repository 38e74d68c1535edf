package io.ankusa.store.lmdb;

import io.ankusa.store.StoreException;
import io.ankusa.store.WriteBatch;

/**
 * One caller's batch waiting to be written ({@link LmdbStore#commit}): whichever committer holds
 * the commit lock next writes every waiting batch, in arrival order, in one LMDB write transaction
 * (one {@code fdatasync} of data pages for all of them), and records here the transaction's number
 * or the failure. Its fields are written and read under the commit lock only.
 */
final class PendingWrite {

    final WriteBatch batch;
    /** The number of the write transaction that applied the batch, once written. */
    long transaction;
    /** Why the batch was not written, once that is known. */
    StoreException failure;
    boolean done;

    PendingWrite(WriteBatch batch) {
        this.batch = batch;
    }

    void written(long number) {
        transaction = number;
        done = true;
    }

    void failed(StoreException why) {
        failure = why;
        done = true;
    }
}

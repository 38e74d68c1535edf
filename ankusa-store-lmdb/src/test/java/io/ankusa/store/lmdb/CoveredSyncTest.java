package io.ankusa.store.lmdb;

import static io.ankusa.store.lmdb.TestStores.PLAIN;
import static io.ankusa.store.lmdb.TestStores.utf8;
import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.store.Durability;
import io.ankusa.store.WriteBatch;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A commit's data sync makes every earlier write transaction durable (LMDB syncs the data pages,
 * and with them the meta pages written before, ahead of its own meta page), so a sync of an
 * earlier transaction that another commit followed needs no {@code mdb_env_sync} of its own; a
 * transaction that wrote nothing (LMDB commits it without a sync) covers nothing.
 */
class CoveredSyncTest {

    @TempDir
    Path dir;

    @Test
    void aLaterCommitCoversTheSyncOfAnEarlierOne() {
        try (LmdbStore store = (LmdbStore) TestStores.open(dir)) {
            store.commit(new WriteBatch().put(PLAIN, utf8("a"), utf8("1")), Durability.ASYNC);
            long first = store.lastCommitted();
            store.commit(new WriteBatch().put(PLAIN, utf8("b"), utf8("2")), Durability.ASYNC);
            long syncs = store.syncsMade();

            store.syncThrough(first);
            assertThat(store.syncsMade()).as("covered by the second commit's data sync").isEqualTo(syncs);

            store.syncThrough(store.lastCommitted());
            assertThat(store.syncsMade()).as("the last commit has no later one").isEqualTo(syncs + 1);
        }
    }

    @Test
    void aCommitThatWroteNothingCoversNothing() {
        try (LmdbStore store = (LmdbStore) TestStores.open(dir)) {
            store.commit(new WriteBatch().put(PLAIN, utf8("a"), utf8("1")), Durability.ASYNC);
            long first = store.lastCommitted();
            store.commit(new WriteBatch().delete(PLAIN, utf8("absent")), Durability.ASYNC);
            assertThat(store.lastCommitted()).isEqualTo(first + 1);
            long syncs = store.syncsMade();

            store.syncThrough(first);
            assertThat(store.syncsMade()).as("a commit LMDB made without a sync covers nothing")
                    .isEqualTo(syncs + 1);
        }
    }
}

package io.ankusa.tests.upgrade;

import io.ankusa.store.Durability;
import io.ankusa.store.Store;
import io.ankusa.store.StoreClosedException;
import io.ankusa.store.WriteBatch;
import io.ankusa.tests.support.ForwardingStore;
import java.nio.file.Path;
import java.util.Optional;

/**
 * A forwarding {@link Store} that checkpoints the store it wraps right after every
 * {@link Durability#SYNC} commit, and refuses every commit after its n-th as a closed store would.
 * The latest checkpoint is what a power loss right after the n-th commit may leave at worst: every
 * commit up to the last synced one, none of the unsynced ones after it.
 */
final class CheckpointAtSyncStore extends ForwardingStore {

    private final Path checkpoints;
    private final int stopAfterCommits;
    private int commits;
    private int syncedCommits;
    private Optional<Path> latest = Optional.empty();

    /** Wraps {@code delegate}; checkpoints into {@code checkpoints}/synced-N; refuses commit number {@code stopAfterCommits} + 1 on. */
    CheckpointAtSyncStore(Store delegate, Path checkpoints, int stopAfterCommits) {
        super(delegate);
        this.checkpoints = checkpoints;
        this.stopAfterCommits = stopAfterCommits;
    }

    @Override
    public void commit(WriteBatch batch, Durability durability) {
        if (commits == stopAfterCommits) {
            throw new StoreClosedException("stopped after " + commits + " commits (power loss)");
        }
        super.commit(batch, durability);
        commits++;
        if (durability == Durability.SYNC) {
            syncedCommits++;
            Path target = checkpoints.resolve("synced-" + syncedCommits);
            delegate().checkpoint(target);
            latest = Optional.of(target);
        }
    }

    /** The checkpoint after the last synced commit, if there was one. */
    Optional<Path> latestSynced() {
        return latest;
    }

    /** Commits that went through. */
    int commits() {
        return commits;
    }
}

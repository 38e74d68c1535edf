package io.ankusa.queue.intake;

import io.ankusa.api.events.IngestCommitted;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * What became of each hook of one ingest batch, for the {@link IngestCommitted} event. Filled in on
 * the writer thread, finished on the sync thread once the batch is durable (handed over through a
 * blocking queue).
 */
final class BatchTally {

    private final int batchSize;
    private final long startedNanos;
    private int accepted;
    private int duplicates;
    private int refusals;
    private Map<String, Integer> refused = Map.of();

    BatchTally(int batchSize, long startedNanos) {
        this.batchSize = batchSize;
        this.startedNanos = startedNanos;
    }

    void duplicate() {
        duplicates++;
    }

    void refused(String reason) {
        if (refused.isEmpty()) {
            refused = new HashMap<>();
        }
        refused.merge(reason, 1, Integer::sum);
        refusals++;
    }

    void refusedAll(String reason, int count) {
        for (int i = 0; i < count; i++) {
            refused(reason);
        }
    }

    void accepted(int count) {
        accepted += count;
    }

    /** The batch's sync failed: none of its hooks (repeats included) was acknowledged. */
    void notDurable() {
        accepted = 0;
        duplicates = 0;
    }

    /** The batch ended; whatever is not accounted for failed. */
    IngestCommitted finish(long endNanos) {
        int failed = batchSize - accepted - duplicates - refusals;
        return new IngestCommitted(batchSize, accepted, duplicates, refused, failed,
                Duration.ofNanos(endNanos - startedNanos));
    }
}

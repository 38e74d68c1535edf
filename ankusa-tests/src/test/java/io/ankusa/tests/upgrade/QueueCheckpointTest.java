package io.ankusa.tests.upgrade;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ankusa.api.QueueStats;
import io.ankusa.queue.Queue;
import io.ankusa.queue.engine.QueueEngine;
import io.ankusa.store.Store;
import io.ankusa.store.StoreException;
import io.ankusa.tests.queue.IndexFold;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** {@link Queue#checkpoint}: the backup docs/deployment.md asks for before an upgrade. */
class QueueCheckpointTest {

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aQueueCheckpointTakenWhileTheQueueRunsOpensAsAQueueWithEverythingAckedBeforeIt(String backend) {
        Path backup = dir.resolve("backup");
        QueueStats before;
        try (Queue queue = Queue.open(Upgrades.config(backend, dir.resolve("live"), b -> b.archive(true)))) {
            for (int i = 0; i < 20; i++) {
                queue.ingest(StoreFixtures.hook("h" + i, i % 3 == 0 ? null : "t" + (i % 4), 1, 2)).join();
            }
            before = queue.stats();
            queue.checkpoint(backup);
            queue.ingest(StoreFixtures.hook("after", "t1", 1)).join();
            assertThatThrownBy(() -> queue.checkpoint(backup)).as("the target must not exist")
                    .isInstanceOf(StoreException.class);
        }
        try (Queue restored = Queue.open(Upgrades.config(backend, backup))) {
            assertThat(restored.stats()).isEqualTo(before);
            assertThat(restored.tenantCount()).as("t0..t3 and default").isEqualTo(5);
            Store s = QueueEngine.of(restored).store();
            IndexFold.of(s).assertCountersMatch(s);
            assertThat(restored.ingest(StoreFixtures.hook("next", "t1", 1)).join().seq())
                    .as("seqs go on after the last one in the backup").isEqualTo(21);
        }
    }
}

package io.ankusa.cli.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.api.QueueConfig;
import io.ankusa.queue.Queue;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DemoIngestTest {

    @TempDir
    Path dir;

    @Test
    void everyHookIsAcknowledgedAndCountedUnderItsTenant() throws Exception {
        DemoPlan plan = new DemoPlan(3_000, 50, 1.1, 64, 9);
        try (Queue queue = Queue.open(QueueConfig.builder(dir).build())) {
            DemoIngest ingest = new DemoIngest(queue, plan);

            ingest.run();

            long[] perTenant = ingest.perTenant();
            assertThat(ingest.acknowledged()).isEqualTo(3_000);
            assertThat(Arrays.stream(perTenant).sum()).isEqualTo(3_000);
            assertThat(Arrays.stream(perTenant).min().orElseThrow()).isPositive();
            assertThat(perTenant[0]).isGreaterThan(perTenant[49]);
            assertThat(queue.tenantCount()).isEqualTo(50);
            assertThat(queue.stats().pending()).isEqualTo(3_000);
            for (int i = 0; i < plan.tenants(); i++) {
                assertThat(queue.pendingForTenant(plan.tenantName(i)).pending()).isEqualTo(perTenant[i]);
            }
        }
    }

    @Test
    void tenantNamesArePaddedToTheWidestIndex() {
        assertThat(new DemoPlan(1, 1000, 1, 0, 1).tenantName(7)).isEqualTo("tenant-007");
        assertThat(new DemoPlan(1, 1, 1, 0, 1).tenantName(0)).isEqualTo("tenant-0");
    }
}

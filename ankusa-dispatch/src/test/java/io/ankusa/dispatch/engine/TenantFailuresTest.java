package io.ankusa.dispatch.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.dispatch.sink.SinkOutcome;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The recent failures per tenant: two one-minute windows, and memory for the tenants attempted lately only. */
class TenantFailuresTest {

    private final AtomicLong nanos = new AtomicLong();
    private final TenantFailures failures = new TenantFailures(nanos::get);

    @Test
    void aTenantCountsItsAttemptsOfTheLastTwoWindows() {
        failures.ended(1, SinkOutcome.retry("503"));
        failures.ended(1, SinkOutcome.delivered());
        nanos.addAndGet(TenantFailures.WINDOW_NANOS);
        failures.ended(1, SinkOutcome.dead("400"));
        assertThat(failures.of(1)).isEqualTo(new TenantFailures.Recent(1, 3, 2));
        nanos.addAndGet(TenantFailures.WINDOW_NANOS);
        assertThat(failures.of(1)).as("the first window is gone").isEqualTo(new TenantFailures.Recent(1, 1, 1));
    }

    @Test
    void tenantsWithNoRecentAttemptAreForgottenWithoutAnyoneReading() {
        for (long ord = 1; ord <= 100; ord++) {
            failures.ended(ord, SinkOutcome.delivered());
        }
        nanos.addAndGet(2 * TenantFailures.WINDOW_NANOS);
        failures.ended(500, SinkOutcome.delivered());
        assertThat(failures.size()).isEqualTo(1);
        assertThat(failures.worst(10, 1)).isEmpty();
    }
}

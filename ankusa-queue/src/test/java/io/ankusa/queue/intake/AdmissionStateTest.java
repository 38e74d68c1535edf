package io.ankusa.queue.intake;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.api.Rate;
import io.ankusa.api.TenantOverloadedException.Reason;
import io.ankusa.api.TenantPolicy;
import io.ankusa.queue.admission.PolicyCache;
import io.ankusa.queue.deliveries.CounterValues;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Ingest admission's per-tenant state at many tenants: with no limits it reads no
 * counters; with limits a tenant's counters are read once however many tenants come between its
 * hooks, and its rate bucket is never reset by other tenants' traffic. (A state of 65 536 tenants
 * cleared whole would read a tenant's counters for every hook of a million tenants taken
 * round-robin, and a cleared bucket would start full again.)
 */
class AdmissionStateTest {

    /** More tenants than the old state held (65 536). */
    private static final int TENANTS = 100_000;

    private final AtomicLong counterReads = new AtomicLong();
    private long now;

    private IngestAdmission admission(PolicyCache policies, long nodeMaxBytes) {
        return new IngestAdmission(policies, ord -> {
            counterReads.incrementAndGet();
            return CounterValues.ZERO;
        }, () -> 0, () -> now, nodeMaxBytes);
    }

    private static void pass(IngestAdmission admission, int tenants, int from) {
        for (int i = 0; i < tenants; i++) {
            if (i % 256 == 0) {
                admission.beginBatch();
            }
            assertThat(admission.admit("tenant-" + (from + i), from + i + 1L, 1, 300)).isEmpty();
        }
    }

    @Test
    void withLimitsOffAdmissionReadsNoCounters() {
        IngestAdmission admission = admission(new PolicyCache(t -> TenantPolicy.DEFAULT), Long.MAX_VALUE);
        for (int round = 0; round < 3; round++) {
            pass(admission, TENANTS, 0);
        }
        assertThat(counterReads).hasValue(0);
    }

    @Test
    void aLimitedTenantsCountersAreReadOnceHoweverManyTenantsComeBetween() {
        TenantPolicy limited = TenantPolicy.DEFAULT.withMaxPendingRows(1_000).withMaxPendingBytes(1L << 30);
        IngestAdmission admission = admission(new PolicyCache(t -> limited), Long.MAX_VALUE);
        for (int round = 0; round < 3; round++) {
            pass(admission, TENANTS, 0);
        }
        assertThat(counterReads).as("one read per tenant, not one per hook").hasValue(TENANTS);
    }

    @Test
    void aRateBucketIsNotRefilledByOtherTenantsTraffic() {
        TenantPolicy slow = TenantPolicy.DEFAULT.withIngestRate(new Rate(1, 1));
        IngestAdmission admission = admission(new PolicyCache(t -> t.equals("slow") ? slow : TenantPolicy.DEFAULT),
                Long.MAX_VALUE);
        long slowOrd = TENANTS + 1L;
        admission.beginBatch();
        assertThat(admission.admit("slow", slowOrd, 1, 300)).isEmpty();
        pass(admission, TENANTS, 0);
        assertThat(admission.admit("slow", slowOrd, 1, 300)).hasValueSatisfying(
                e -> assertThat(e.reason()).isEqualTo(Reason.INGEST_RATE));
        now += 1_000_000_000L;
        assertThat(admission.admit("slow", slowOrd, 1, 300)).as("a token a second").isEmpty();
    }

    @Test
    void aChangedPolicyAppliesToTheTenantsNextHook() {
        ConcurrentHashMap<String, TenantPolicy> policies = new ConcurrentHashMap<>();
        PolicyCache cache = new PolicyCache(t -> policies.getOrDefault(t, TenantPolicy.DEFAULT));
        IngestAdmission admission = admission(cache, Long.MAX_VALUE);
        admission.beginBatch();
        assertThat(admission.admit("t", 7, 1, 300)).isEmpty();
        policies.put("t", TenantPolicy.DEFAULT.withMaxPendingRows(1));
        cache.invalidate("t");
        assertThat(admission.admit("t", 7, 1, 300)).isEmpty();
        assertThat(admission.admit("t", 7, 1, 300)).as("the new limit of one row").hasValueSatisfying(
                e -> assertThat(e.reason()).isEqualTo(Reason.PENDING_ROWS));
    }

    @Test
    void aForgottenOrdinalStartsAfresh() {
        TenantPolicy slow = TenantPolicy.DEFAULT.withIngestRate(new Rate(1, 1));
        IngestAdmission admission = admission(new PolicyCache(t -> t.startsWith("slow") ? slow : TenantPolicy.DEFAULT),
                Long.MAX_VALUE);
        admission.beginBatch();
        assertThat(admission.admit("slow-a", 5, 1, 300)).isEmpty();
        // Ordinal 5 was handed out in a resolution that was not committed; it goes to another tenant.
        admission.forget(5);
        assertThat(admission.admit("slow-b", 5, 1, 300)).as("not slow-a's empty bucket").isEmpty();
    }
}

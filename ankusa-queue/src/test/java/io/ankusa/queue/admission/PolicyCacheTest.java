package io.ankusa.queue.admission;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ankusa.api.AnkusaException;
import io.ankusa.api.TenantPolicy;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class PolicyCacheTest {

    private final Map<String, TenantPolicy> application = new HashMap<>();
    private final AtomicInteger asked = new AtomicInteger();
    private final PolicyCache cache = new PolicyCache(tenant -> {
        asked.incrementAndGet();
        return application.getOrDefault(tenant, TenantPolicy.DEFAULT);
    });

    @Test
    void aPolicyIsAskedOnceUntilInvalidated() {
        application.put("acme", TenantPolicy.DEFAULT.withWeight(3));
        assertThat(cache.policyFor("acme").weight()).isEqualTo(3);
        application.put("acme", TenantPolicy.DEFAULT.withWeight(5));
        assertThat(cache.policyFor("acme").weight()).isEqualTo(3);
        assertThat(asked).hasValue(1);
        long generation = cache.generation();
        cache.invalidate("acme");
        assertThat(cache.generation()).isGreaterThan(generation);
        assertThat(cache.policyFor("acme").weight()).isEqualTo(5);
        assertThat(asked).hasValue(2);
    }

    @Test
    void invalidateAllForgetsEveryTenant() {
        cache.policyFor("a");
        cache.policyFor("b");
        cache.invalidateAll();
        cache.policyFor("a");
        cache.policyFor("b");
        assertThat(asked).hasValue(4);
    }

    @Test
    void anInvalidationDuringAMissIsNotLost() {
        PolicyCache[] self = new PolicyCache[1];
        AtomicInteger version = new AtomicInteger(1);
        self[0] = new PolicyCache(tenant -> {
            TenantPolicy answer = TenantPolicy.DEFAULT.withWeight(version.get());
            if (version.get() == 1) {
                version.set(2);
                self[0].invalidate(tenant); // the application changes the policy while we ask
            }
            return answer;
        });
        assertThat(self[0].policyFor("t").weight()).isEqualTo(1);
        assertThat(self[0].policyFor("t").weight()).as("the stale answer was not kept").isEqualTo(2);
    }

    @Test
    void aFailingResolverIsATypedErrorAndNothingIsCached() {
        PolicyCache failing = new PolicyCache(tenant -> {
            throw new IllegalStateException("config service down");
        });
        assertThatThrownBy(() -> failing.policyFor("t")).isInstanceOf(AnkusaException.class)
                .hasMessageContaining("config service down")
                .satisfies(e -> assertThat(((AnkusaException) e).error()).isEqualTo("tenant_policy"));
        PolicyCache nulls = new PolicyCache(tenant -> null);
        assertThatThrownBy(() -> nulls.policyFor("t")).isInstanceOf(AnkusaException.class);
    }

    @Test
    void theCacheIsBounded() {
        for (int i = 0; i <= PolicyCache.CAPACITY; i++) {
            cache.policyFor("t" + i);
        }
        asked.set(0);
        cache.policyFor("t0");
        assertThat(asked).as("cleared whole when full").hasValue(1);
    }
}

package io.ankusa.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TenantPolicyTest {

    @Test
    void theDefaultPolicyHasWeightOneAndNoLimits() {
        TenantPolicy policy = TenantPolicy.DEFAULT;
        assertThat(policy.weight()).isEqualTo(1);
        assertThat(policy.maxInflight()).isEqualTo(Integer.MAX_VALUE);
        assertThat(policy.deliveryRate().unlimited()).isTrue();
        assertThat(policy.ingestRate().unlimited()).isTrue();
        assertThat(policy.maxPendingRows()).isEqualTo(Long.MAX_VALUE);
        assertThat(QueueConfig.builder(Path.of("x")).build().tenantPolicies().policyFor("any")).isEqualTo(policy);
    }

    @Test
    void outOfRangeValuesAreRefused() {
        assertThatThrownBy(() -> TenantPolicy.DEFAULT.withWeight(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> TenantPolicy.DEFAULT.withWeight(TenantPolicy.MAX_WEIGHT + 1))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> TenantPolicy.DEFAULT.withMaxInflight(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> TenantPolicy.DEFAULT.withMaxPendingRows(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Rate(0, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Rate(Double.NaN, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Rate(5, 0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aRatePerSecondBurstsOneSecondOfTokens() {
        assertThat(Rate.perSecond(100)).isEqualTo(new Rate(100, 100));
        assertThat(Rate.perSecond(0.5)).isEqualTo(new Rate(0.5, 1));
        assertThat(Rate.perSecond(100).unlimited()).isFalse();
    }

    @Test
    void overridesApplyToTheTenantsTheyName() {
        TenantPolicy heavy = TenantPolicy.DEFAULT.withWeight(4);
        TenantPolicies policies = TenantPolicies.of(TenantPolicy.DEFAULT, Map.of("acme", heavy));
        assertThat(policies.policyFor("acme")).isEqualTo(heavy);
        assertThat(policies.policyFor("other")).isEqualTo(TenantPolicy.DEFAULT);
    }
}

package io.ankusa.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TenantPolicyTest {

    @Test
    void the_default_policy_has_weight_one_and_no_limits() {
        TenantPolicy policy = TenantPolicy.DEFAULT;
        assertThat(policy.weight()).isEqualTo(1);
        assertThat(policy.maxInflight()).isEqualTo(Integer.MAX_VALUE);
        assertThat(policy.deliveryRate().unlimited()).isTrue();
        assertThat(policy.ingestRate().unlimited()).isTrue();
        assertThat(policy.maxPendingRows()).isEqualTo(Long.MAX_VALUE);
        assertThat(QueueConfig.builder(Path.of("x")).build().tenantPolicies().policyFor("any")).isEqualTo(policy);
    }

    @Test
    void out_of_range_values_are_refused() {
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
    void a_rate_per_second_bursts_one_second_of_tokens() {
        assertThat(Rate.perSecond(100)).isEqualTo(new Rate(100, 100));
        assertThat(Rate.perSecond(0.5)).isEqualTo(new Rate(0.5, 1));
        assertThat(Rate.perSecond(100).unlimited()).isFalse();
    }

    @Test
    void overrides_apply_to_the_tenants_they_name() {
        TenantPolicy heavy = TenantPolicy.DEFAULT.withWeight(4);
        TenantPolicies policies = TenantPolicies.of(TenantPolicy.DEFAULT, Map.of("acme", heavy));
        assertThat(policies.policyFor("acme")).isEqualTo(heavy);
        assertThat(policies.policyFor("other")).isEqualTo(TenantPolicy.DEFAULT);
    }
}

package io.ankusa.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class ConfigTest {

    @Test
    void defaultsAreTheSpecs() {
        QueueConfig config = QueueConfig.builder(Path.of("x")).build();
        assertThat(config.backend()).isEqualTo("rocksdb");
        assertThat(config.tenantsMax()).isEqualTo(1_000_000);
        assertThat(config.archive()).isFalse();
    }

    @Test
    void tenantsMaxRangeIsOneToFourBillionTwoHundredNinetyFourMillion() {
        assertThat(QueueConfig.builder(Path.of("x")).tenantsMax(1).build().tenantsMax()).isEqualTo(1);
        assertThat(QueueConfig.builder(Path.of("x")).tenantsMax(4_294_967_294L).build().tenantsMax()).isEqualTo(4_294_967_294L);
        assertThatThrownBy(() -> QueueConfig.builder(Path.of("x")).tenantsMax(0).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("tenants.max");
        assertThatThrownBy(() -> QueueConfig.builder(Path.of("x")).tenantsMax(4_294_967_295L).build())
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void refusalsCarryTheirMachineReadableReason() {
        TenantLimitException limit = new TenantLimitException("t", 5);
        assertThat(limit.error()).isEqualTo("tenant_limit");
        assertThat(limit.retryAfter()).hasSeconds(300);
        StoreFormatNewerException newer = new StoreFormatNewerException(4, 3);
        assertThat(newer.error()).isEqualTo("store_format_newer");
        assertThat(newer.found()).isEqualTo(4);
        assertThat(newer.supported()).isEqualTo(3);
        InvalidHookException invalid = new InvalidHookException(InvalidHookException.Reason.DUPLICATE_SINK, "x");
        assertThat(invalid.error()).isEqualTo("invalid_hook");
        assertThat(invalid.reason().code()).isEqualTo("duplicate_sink");
    }

    @Test
    void aHookWithoutTenantIsFiledUnderDefault() {
        Hook hook = Hook.builder().id("a").sourceId("b").sinks(0).build();
        assertThat(hook.tenantId()).isEmpty();
        assertThat(hook.tenant()).isEqualTo("default");
        byte[] payload = {1, 2};
        Hook copy = Hook.builder().id("a").sourceId("b").sinks(0).payload(payload).build();
        payload[0] = 9;
        assertThat(copy.payload()).containsExactly(1, 2);
    }
}

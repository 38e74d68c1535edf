package io.ankusa.spring.boot;

import io.ankusa.micrometer.AnkusaMetrics;
import java.time.Duration;
import java.util.Objects;
import org.springframework.boot.context.properties.ConfigurationProperties;

/** The Micrometer binder's settings, {@code ankusa.metrics.*} (used when {@code ankusa-micrometer} is present). */
@ConfigurationProperties("ankusa.metrics")
public class AnkusaMetricsProperties {

    /**
     * How many tenants get per-tenant series, for each of pending rows, oldest due age and failure
     * rate: the top N by each, 0 to 100. Bounds the per-tenant series of a scrape at 3 N.
     */
    private int topTenants = 10;
    /**
     * How old the binder's snapshot of the gauges and the pipeline's health may be before a scrape
     * measures a new one (0: every scrape measures).
     */
    private Duration refreshInterval = Duration.ofSeconds(5);

    /** {@return how many tenants get per-tenant series} */
    public int getTopTenants() {
        return topTenants;
    }

    /** @param topTenants how many tenants get per-tenant series, 0..{@value AnkusaMetrics#MAX_TOP_TENANTS} */
    public void setTopTenants(int topTenants) {
        this.topTenants = topTenants;
    }

    /** {@return how old the snapshot may be before a scrape measures a new one} */
    public Duration getRefreshInterval() {
        return refreshInterval;
    }

    /** @param refreshInterval how old the snapshot may be before a scrape measures a new one */
    public void setRefreshInterval(Duration refreshInterval) {
        this.refreshInterval = Objects.requireNonNull(refreshInterval, "refreshInterval");
    }

    /** {@return a binder with these settings} */
    AnkusaMetrics binder() {
        return AnkusaMetrics.builder().topTenants(topTenants).refreshInterval(refreshInterval).build();
    }
}

package io.ankusa.api;

import java.util.Objects;

/**
 * What one tenant may use of the node: its share of dispatch and its limits, in dispatch and at
 * ingest. The application supplies policies through {@link TenantPolicies}; the queue caches
 * them and re-reads a tenant's policy when told it changed. The scheduler (fair dispatch) and
 * the ingest writer (admission) read the same policy, so one decision covers both.
 *
 * @param weight          the tenant's share of dispatch relative to other tenants with due work
 *                        (deficit round-robin quantum multiplier), 1..1 000 (default 1)
 * @param maxInflight     most of the tenant's deliveries in flight at once, at least 1
 *                        (default {@link Integer#MAX_VALUE}: no limit beyond the pipeline's)
 * @param deliveryRate    how fast the tenant's deliveries may start (default unlimited)
 * @param maxPendingRows  most due delivery rows (pending + scheduled) the tenant may hold; an
 *                        ingest past it is refused (default {@link Long#MAX_VALUE})
 * @param maxPendingBytes most bytes of delivery rows the tenant may hold (counter {@code bytes});
 *                        an ingest past it is refused (default {@link Long#MAX_VALUE})
 * @param ingestRate      how fast the tenant's hooks may be accepted (default unlimited)
 */
public record TenantPolicy(int weight, int maxInflight, Rate deliveryRate, long maxPendingRows, long maxPendingBytes,
        Rate ingestRate) {

    /** Largest weight. */
    public static final int MAX_WEIGHT = 1_000;

    /** Weight 1, no limits. */
    public static final TenantPolicy DEFAULT = new TenantPolicy(1, Integer.MAX_VALUE, Rate.UNLIMITED, Long.MAX_VALUE,
            Long.MAX_VALUE, Rate.UNLIMITED);

    /**
     * Checks the values.
     *
     * @param weight          share of dispatch, 1..{@value #MAX_WEIGHT}
     * @param maxInflight     most deliveries in flight at once, at least 1
     * @param deliveryRate    how fast deliveries may start
     * @param maxPendingRows  most due delivery rows held, at least 1
     * @param maxPendingBytes most delivery-row bytes held, at least 1
     * @param ingestRate      how fast hooks may be accepted
     */
    public TenantPolicy {
        if (weight < 1 || weight > MAX_WEIGHT) {
            throw new IllegalArgumentException("weight must be in 1.." + MAX_WEIGHT + ": " + weight);
        }
        if (maxInflight < 1) {
            throw new IllegalArgumentException("maxInflight must be at least 1: " + maxInflight);
        }
        Objects.requireNonNull(deliveryRate, "deliveryRate");
        Objects.requireNonNull(ingestRate, "ingestRate");
        if (maxPendingRows < 1 || maxPendingBytes < 1) {
            throw new IllegalArgumentException("pending limits must be at least 1");
        }
    }

    /**
     * This policy with another weight.
     *
     * @param weight the weight
     * @return a copy with {@code weight} changed
     */
    public TenantPolicy withWeight(int weight) {
        return new TenantPolicy(weight, maxInflight, deliveryRate, maxPendingRows, maxPendingBytes, ingestRate);
    }

    /**
     * This policy with another in-flight limit.
     *
     * @param maxInflight the in-flight limit
     * @return a copy with {@code maxInflight} changed
     */
    public TenantPolicy withMaxInflight(int maxInflight) {
        return new TenantPolicy(weight, maxInflight, deliveryRate, maxPendingRows, maxPendingBytes, ingestRate);
    }

    /**
     * This policy with another delivery rate.
     *
     * @param deliveryRate the delivery rate
     * @return a copy with {@code deliveryRate} changed
     */
    public TenantPolicy withDeliveryRate(Rate deliveryRate) {
        return new TenantPolicy(weight, maxInflight, deliveryRate, maxPendingRows, maxPendingBytes, ingestRate);
    }

    /**
     * This policy with another pending-rows limit.
     *
     * @param maxPendingRows the pending-rows limit
     * @return a copy with {@code maxPendingRows} changed
     */
    public TenantPolicy withMaxPendingRows(long maxPendingRows) {
        return new TenantPolicy(weight, maxInflight, deliveryRate, maxPendingRows, maxPendingBytes, ingestRate);
    }

    /**
     * This policy with another pending-bytes limit.
     *
     * @param maxPendingBytes the pending-bytes limit
     * @return a copy with {@code maxPendingBytes} changed
     */
    public TenantPolicy withMaxPendingBytes(long maxPendingBytes) {
        return new TenantPolicy(weight, maxInflight, deliveryRate, maxPendingRows, maxPendingBytes, ingestRate);
    }

    /**
     * This policy with another ingest rate.
     *
     * @param ingestRate the ingest rate
     * @return a copy with {@code ingestRate} changed
     */
    public TenantPolicy withIngestRate(Rate ingestRate) {
        return new TenantPolicy(weight, maxInflight, deliveryRate, maxPendingRows, maxPendingBytes, ingestRate);
    }
}

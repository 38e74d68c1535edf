package io.ankusa.dispatch.report;

import io.ankusa.api.Rate;
import java.util.Objects;

/**
 * What a pipeline's scheduler knows of one tenant now: its share, its deliveries in flight, its
 * limits, and whether it is held back and why. Read with {@link io.ankusa.dispatch.Pipeline#tenantDispatch(String)}
 * or a page of {@link io.ankusa.dispatch.Pipeline#dueTenants(long, int)}; the counts are the pipeline's own (its
 * claims not yet settled), not the store's.
 *
 * @param tenantId     the tenant
 * @param weight       its weight in the round-robin (its policy's)
 * @param inflight     deliveries this pipeline claimed for it and has not settled yet
 * @param maxInflight  its in-flight limit ({@link Integer#MAX_VALUE}: none)
 * @param deliveryRate its delivery rate ({@link Rate#UNLIMITED}: none)
 * @param tokens       delivery tokens it holds now ({@link Long#MAX_VALUE} when its rate is unlimited)
 * @param hold         whether it is held back, and by what
 */
public record TenantDispatch(String tenantId, int weight, int inflight, int maxInflight, Rate deliveryRate, long tokens,
        Hold hold) {

    /** Why a tenant with due work is not being claimed from. */
    public enum Hold {
        /** Not held back: it takes its turns (or has nothing due). */
        NONE,
        /** At its in-flight limit: it waits for one of its deliveries to settle. */
        IN_FLIGHT_LIMIT,
        /** Out of delivery tokens: it waits for its next token. */
        DELIVERY_RATE,
        /** Its policy could not be read: its rows stay due and the scheduler asks again in a second. */
        POLICY_UNREADABLE,
        /**
         * Every due row it has waits on its endpoint (disabled, paused by {@code Retry-After}, breaker
         * open or at its concurrency limit): it leaves the ring until that may have changed.
         */
        ENDPOINTS,
        /**
         * Every due row it has waits behind the head of its ordering key (delivered or dead-lettered
         * first, in ingest order): it leaves the ring until one of its settles.
         */
        ORDERING
    }

    /**
     * Validates.
     *
     * @param tenantId the tenant
     * @param weight its weight in the round-robin (its policy's)
     * @param inflight deliveries this pipeline claimed for it and has not settled yet
     * @param maxInflight its in-flight limit ({@link Integer#MAX_VALUE}: none)
     * @param deliveryRate its delivery rate ({@link Rate#UNLIMITED}: none)
     * @param tokens delivery tokens it holds now ({@link Long#MAX_VALUE} when its rate is unlimited)
     * @param hold whether it is held back, and by what
     */
    public TenantDispatch {
        Objects.requireNonNull(tenantId, "tenantId");
        Objects.requireNonNull(deliveryRate, "deliveryRate");
        Objects.requireNonNull(hold, "hold");
    }
}

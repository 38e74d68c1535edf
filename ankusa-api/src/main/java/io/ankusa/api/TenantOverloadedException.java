package io.ankusa.api;

import java.time.Duration;
import java.util.Objects;

/**
 * A hook refused by ingest admission ({@link #error()} {@code "tenant_overloaded"}): its tenant is
 * over a limit of its {@link TenantPolicy}, or the node is full. Nothing was written for it and
 * other tenants' hooks are unaffected; try again after {@link #retryAfter()} (an HTTP front end
 * answers 429 for a tenant limit, 503 for {@link Reason#NODE_FULL}).
 */
public final class TenantOverloadedException extends AnkusaException {

    private static final long serialVersionUID = 1L;

    /** Which limit refused the hook. */
    public enum Reason {
        /** The tenant's due rows (pending + scheduled) would pass {@link TenantPolicy#maxPendingRows()}. */
        PENDING_ROWS("pending_rows"),
        /** The tenant's row bytes would pass {@link TenantPolicy#maxPendingBytes()}. */
        PENDING_BYTES("pending_bytes"),
        /** The tenant's {@link TenantPolicy#ingestRate()} has no token left. */
        INGEST_RATE("ingest_rate"),
        /** The node's row bytes would pass the node-wide limit. */
        NODE_FULL("node_full");

        private final String code;

        Reason(String code) {
            this.code = code;
        }

        /** {@return the reason as a stable lower-case code} */
        public String code() {
            return code;
        }
    }

    /** The tenant whose hook was refused. */
    private final String tenant;
    /** Which limit refused it. */
    private final Reason reason;
    /** How long to wait. */
    private final Duration retryAfter;

    /**
     * A refusal of a hook of {@code tenant} for {@code reason}.
     *
     * @param tenant     the tenant whose hook was refused
     * @param reason     which limit refused it
     * @param retryAfter how long a client should wait before trying again
     * @param detail     the numbers behind the refusal, for people
     */
    public TenantOverloadedException(String tenant, Reason reason, Duration retryAfter, String detail) {
        super("tenant_overloaded", reason.code() + ": tenant '" + tenant + "' " + detail);
        this.tenant = Objects.requireNonNull(tenant, "tenant");
        this.reason = reason;
        this.retryAfter = Objects.requireNonNull(retryAfter, "retryAfter");
    }

    /** {@return the tenant whose hook was refused} */
    public String tenant() {
        return tenant;
    }

    /** {@return which limit refused it} */
    public Reason reason() {
        return reason;
    }

    /** {@return how long a client should wait before trying again} */
    public Duration retryAfter() {
        return retryAfter;
    }
}

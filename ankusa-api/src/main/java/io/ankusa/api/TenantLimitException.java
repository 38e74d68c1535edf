package io.ankusa.api;

import java.time.Duration;

/**
 * A hook whose tenant would be the {@code tenants.max + 1}-th was refused
 * ({@link #error()} {@code "tenant_limit"}); nothing was written for it. Hooks of existing
 * tenants are never refused for this reason. An HTTP front end answers 503 with
 * {@code Retry-After: 300}.
 */
public final class TenantLimitException extends AnkusaException {

    private static final long serialVersionUID = 1L;

    private static final Duration RETRY_AFTER = Duration.ofSeconds(300);

    /** The configured cap. */
    private final long tenantsMax;

    /**
     * A refusal of a new tenant at a cap of {@code tenantsMax} tenants.
     *
     * @param tenant the tenant refused
     * @param tenantsMax the configured cap ({@code tenants.max})
     */
    public TenantLimitException(String tenant, long tenantsMax) {
        super("tenant_limit", "tenant '" + tenant + "' would exceed tenants.max = " + tenantsMax);
        this.tenantsMax = tenantsMax;
    }

    /** {@return how long a client should wait before trying again: 300 seconds} */
    public Duration retryAfter() {
        return RETRY_AFTER;
    }

    /** {@return the configured cap} */
    public long tenantsMax() {
        return tenantsMax;
    }
}

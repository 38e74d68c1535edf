package io.ankusa.api;

/**
 * A hook of a tenant that is being erased ({@link #error()} {@code "tenant_erasing"}); nothing was
 * written for it. Once the erase finishes, the same tenant id is accepted again as a new tenant
 * with a new ordinal.
 */
public final class TenantErasingException extends AnkusaException {

    private static final long serialVersionUID = 1L;

    /**
     * A refusal of a hook of {@code tenant}.
     *
     * @param tenant the tenant being erased
     */
    public TenantErasingException(String tenant) {
        super("tenant_erasing", "tenant '" + tenant + "' is being erased");
    }
}

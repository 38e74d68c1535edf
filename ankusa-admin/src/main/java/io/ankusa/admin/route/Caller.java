package io.ankusa.admin.route;

import java.util.Objects;
import java.util.function.Predicate;

/**
 * Who is calling, as the access policy decided: the principal's name, whether it may change
 * things, which tenants it may see and whose payloads, and its CSRF token.
 *
 * @param principal   the principal's name (recorded with every mutation)
 * @param role        its role's name, as {@code GET /v1/session} shows it
 * @param operator    whether it may call the mutations
 * @param tenantScope which tenant ids it may see; the others are answered as not found
 * @param payloads    whose payloads (by tenant id) it may read
 * @param csrfToken   the token its mutations must carry
 */
public record Caller(String principal, String role, boolean operator, Predicate<String> tenantScope,
        Predicate<String> payloads, String csrfToken) {

    /** Validates. */
    public Caller {
        Objects.requireNonNull(principal, "principal");
        Objects.requireNonNull(role, "role");
        Objects.requireNonNull(tenantScope, "tenantScope");
        Objects.requireNonNull(payloads, "payloads");
        Objects.requireNonNull(csrfToken, "csrfToken");
    }

    /**
     * Whether the caller may see {@code tenant}.
     *
     * @param tenant the tenant id
     * @return true when it is in the caller's scope
     */
    public boolean sees(String tenant) {
        return tenantScope.test(tenant);
    }
}

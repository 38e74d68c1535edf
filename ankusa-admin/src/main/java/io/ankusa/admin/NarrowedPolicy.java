package io.ankusa.admin;

import java.security.Principal;
import java.util.Optional;
import java.util.function.Predicate;

/** A policy with its tenant scope narrowed or its payloads shown ({@link AccessPolicy#withTenantScope}). */
final class NarrowedPolicy implements AccessPolicy {

    private final AccessPolicy inner;
    private final Predicate<String> scope;
    private final boolean payloads;

    NarrowedPolicy(AccessPolicy inner, Predicate<String> scope, boolean payloads) {
        this.inner = inner;
        this.scope = scope;
        this.payloads = payloads;
    }

    @Override
    public Optional<Role> role(Principal principal) {
        return inner.role(principal);
    }

    @Override
    public Optional<Principal> authenticate(String token) {
        return inner.authenticate(token);
    }

    @Override
    public boolean tenantVisible(Principal principal, String tenant) {
        return scope.test(tenant) && inner.tenantVisible(principal, tenant);
    }

    @Override
    public boolean payloadsVisible(Principal principal, String tenant) {
        return tenantVisible(principal, tenant) && (payloads || inner.payloadsVisible(principal, tenant));
    }
}

package io.ankusa.admin;

import java.security.Principal;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * Who may use the admin API, and how far: the application's decision, required to build an
 * {@link AdminServlet} or an {@link AdminServer} (there is no open default).
 *
 * <p>A request's principal is the servlet request's {@link jakarta.servlet.http.HttpServletRequest#getUserPrincipal()
 * user principal} when the host authenticated it, else what {@link #authenticate(String)} makes of
 * its {@code Authorization: Bearer} token. {@link #role(Principal)} then gives its role (none: 403);
 * {@link #tenantVisible} scopes it to some tenants (the others are answered as not found and left
 * out of listings), and {@link #payloadsVisible} says whose payloads it may read.
 *
 * <p>Implementations are called on the server's request threads and must be thread-safe.
 */
public interface AccessPolicy {

    /**
     * The role of {@code principal}.
     *
     * @param principal the authenticated principal
     * @return its role, or empty when it may not use the API at all
     */
    Optional<Role> role(Principal principal);

    /**
     * The principal a bearer token stands for, when the host did not authenticate the request
     * (the own-port server never does). The default knows no tokens.
     *
     * @param token the token of the request's {@code Authorization: Bearer} header
     * @return its principal, or empty for an unknown token
     */
    default Optional<Principal> authenticate(String token) {
        return Optional.empty();
    }

    /**
     * Whether {@code principal} may see {@code tenant}. The default: every tenant.
     *
     * @param principal the principal
     * @param tenant    the tenant id
     * @return true when the tenant is in its scope
     */
    default boolean tenantVisible(Principal principal, String tenant) {
        return true;
    }

    /**
     * Whether {@code principal} may read {@code tenant}'s payloads ({@code ?payload=true}). The
     * default: no one (payloads are the producers' data).
     *
     * @param principal the principal
     * @param tenant    the tenant id
     * @return true when it may
     */
    default boolean payloadsVisible(Principal principal, String tenant) {
        return false;
    }

    /**
     * This policy, with every principal's scope narrowed to the tenants {@code scope} accepts.
     *
     * @param scope the tenant ids to show
     * @return the narrowed policy
     */
    default AccessPolicy withTenantScope(Predicate<String> scope) {
        Objects.requireNonNull(scope, "scope");
        return new NarrowedPolicy(this, scope, false);
    }

    /**
     * This policy, letting every principal read the payloads of the tenants it may see.
     *
     * @return the widened policy
     */
    default AccessPolicy withPayloads() {
        return new NarrowedPolicy(this, t -> true, true);
    }

    /**
     * A policy of bearer tokens, each with its role: a request's token is compared with every
     * token in constant time ({@link java.security.MessageDigest#isEqual}), and its principal is
     * named {@code token-} and the first 12 hex digits of the token's SHA-256 (never the token).
     *
     * @param tokens the tokens and their roles; each token at least 16 characters
     * @return the policy
     * @throws IllegalArgumentException when a token is shorter than 16 characters, or there is none
     */
    static AccessPolicy tokens(Map<String, Role> tokens) {
        return new TokenPolicy(tokens);
    }
}

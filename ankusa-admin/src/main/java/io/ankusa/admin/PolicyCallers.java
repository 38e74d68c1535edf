package io.ankusa.admin;

import io.ankusa.admin.http.CallerResolver;
import io.ankusa.admin.http.CsrfGuard;
import io.ankusa.admin.http.Sessions;
import io.ankusa.admin.route.ApiException;
import io.ankusa.admin.route.Caller;
import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServletRequest;
import java.security.Principal;
import java.util.Locale;
import java.util.Optional;

/**
 * The access policy applied to a servlet request: its principal (the host's, a bearer token's, or
 * a dashboard session's), its role, its scope.
 */
final class PolicyCallers implements CallerResolver {

    private static final String BEARER = "bearer ";

    private final AccessPolicy policy;
    private final Sessions sessions = new Sessions();

    PolicyCallers(AccessPolicy policy) {
        this.policy = policy;
    }

    @Override
    public Caller resolve(HttpServletRequest request, CsrfGuard csrf) {
        Principal principal = principal(request)
                .orElseThrow(() -> new ApiException(401, "unauthenticated", "authenticate first"));
        Role role = policy.role(principal)
                .orElseThrow(() -> new ApiException(403, ApiException.FORBIDDEN, "no role for this principal"));
        String name = principal.getName();
        return new Caller(name, role.name().toLowerCase(Locale.ROOT), role == Role.OPERATOR,
                tenant -> policy.tenantVisible(principal, tenant),
                tenant -> policy.tenantVisible(principal, tenant) && policy.payloadsVisible(principal, tenant),
                csrf.token(name));
    }

    @Override
    public Optional<String> signIn(String token) {
        return policy.authenticate(token).filter(p -> policy.role(p).isPresent()).flatMap(sessions::open);
    }

    @Override
    public void signOut(HttpServletRequest request) {
        session(request).ifPresent(sessions::close);
    }

    private Optional<Principal> principal(HttpServletRequest request) {
        Principal host = request.getUserPrincipal();
        if (host != null) {
            return Optional.of(host);
        }
        String authorization = request.getHeader("Authorization");
        if (authorization == null) {
            return session(request).flatMap(sessions::principal);
        }
        if (authorization.length() <= BEARER.length()
                || !authorization.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
            return Optional.empty();
        }
        return policy.authenticate(authorization.substring(BEARER.length()).strip());
    }

    private static Optional<String> session(HttpServletRequest request) {
        Cookie[] cookies = request.getCookies();
        if (cookies == null) {
            return Optional.empty();
        }
        for (Cookie cookie : cookies) {
            if (cookie.getName().equals(Sessions.COOKIE)) {
                return Optional.of(cookie.getValue());
            }
        }
        return Optional.empty();
    }
}

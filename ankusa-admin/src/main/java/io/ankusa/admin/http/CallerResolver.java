package io.ankusa.admin.http;

import io.ankusa.admin.route.Caller;
import jakarta.servlet.http.HttpServletRequest;
import java.util.Optional;

/** Who a request comes from: the application's access policy, applied to the servlet request. */
public interface CallerResolver {

    /**
     * The caller of {@code request}.
     *
     * @param request the servlet request (its principal, its {@code Authorization} header, its session cookie)
     * @param csrf    the CSRF tokens, for the caller's token
     * @return the caller
     * @throws io.ankusa.admin.route.ApiException {@code unauthenticated} (401) when the request names no
     *     principal, {@code forbidden} (403) when the policy gives the principal no role
     */
    Caller resolve(HttpServletRequest request, CsrfGuard csrf);

    /**
     * Opens a dashboard session for the principal {@code token} stands for, when the policy knows the
     * token and gives its principal a role.
     *
     * @param token a bearer token
     * @return the session's id for the cookie, or empty
     */
    Optional<String> signIn(String token);

    /**
     * Ends the session of {@code request}'s cookie, if any.
     *
     * @param request the request
     */
    void signOut(HttpServletRequest request);
}

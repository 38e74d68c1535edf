package io.ankusa.admin.http;

import io.ankusa.admin.route.Caller;
import jakarta.servlet.http.HttpServletRequest;

/** Who a request comes from: the application's access policy, applied to the servlet request. */
@FunctionalInterface
public interface CallerResolver {

    /**
     * The caller of {@code request}.
     *
     * @param request the servlet request (its principal, its {@code Authorization} header)
     * @param csrf    the CSRF tokens, for the caller's token
     * @return the caller
     * @throws io.ankusa.admin.route.ApiException {@code unauthenticated} (401) when the request names no
     *     principal, {@code forbidden} (403) when the policy gives the principal no role
     */
    Caller resolve(HttpServletRequest request, CsrfGuard csrf);
}

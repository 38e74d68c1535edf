package io.ankusa.admin.http;

import com.fasterxml.jackson.databind.JsonNode;
import io.ankusa.admin.json.Nodes;
import io.ankusa.admin.page.Pages;
import io.ankusa.admin.route.ApiException;
import io.ankusa.admin.route.ApiRequest;
import io.ankusa.admin.route.ApiResponse;
import io.ankusa.admin.route.Caller;
import io.ankusa.admin.route.Router;
import io.ankusa.api.AnkusaException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves one servlet request. Below {@code /v1} it is the JSON API: it authenticates the request
 * (401, 403), finds its route (404, 405), guards a mutation (CSRF, then the operator role), decodes
 * it, runs the route and writes the JSON answer.
 * Every outcome is a JSON body with the security headers; a failure the API did not expect is a
 * 500 {@code internal} whose cause goes to the log, never to the client. Every other path is the
 * dashboard ({@link PageService}), rendered through the same routes.
 */
public final class AdminService {

    private static final Logger LOG = LoggerFactory.getLogger(AdminService.class);

    private final Router router;
    private final CallerResolver callers;
    private final CsrfGuard csrf = new CsrfGuard();
    private final PageService pages;

    /**
     * A service over {@code router}, with callers from {@code callers}.
     *
     * @param router  the routes
     * @param callers the access policy, applied to requests
     */
    public AdminService(Router router, CallerResolver callers) {
        this.router = Objects.requireNonNull(router, "router");
        this.callers = Objects.requireNonNull(callers, "callers");
        this.pages = new PageService(new Pages(router), callers, csrf);
    }

    /** Releases the routes' resources (the tenant ranking's walk, the bulk replays), when the servlet goes. */
    public void close() {
        router.close();
    }

    /**
     * Serves {@code request}.
     *
     * @param request  the request
     * @param response the response
     * @throws IOException when the client went away
     */
    public void serve(HttpServletRequest request, HttpServletResponse response) throws IOException {
        Optional<List<String>> page = pagePath(request);
        if (page.isPresent()) {
            pages.serve(request, response, page.get());
            return;
        }
        int status;
        JsonNode body;
        try {
            ApiResponse answer = answer(request);
            status = answer.status();
            body = answer.body();
        } catch (ApiException e) {
            status = e.status();
            body = Nodes.error(e.code(), e.getMessage());
            if (status == 401) {
                response.setHeader("WWW-Authenticate", "Bearer");
            }
        } catch (AnkusaException e) {
            status = LibraryErrors.status(e);
            body = Nodes.error(e.error(), e.getMessage());
        } catch (IllegalArgumentException e) {
            status = 400;
            body = Nodes.error(ApiException.BAD_REQUEST, e.getMessage());
        } catch (RuntimeException e) {
            LOG.warn("admin {} request failed", request.getMethod(), e);
            status = 500;
            body = Nodes.error("internal", "the request failed; the node's log has the cause");
        }
        JsonResponses.write(response, status, body);
    }

    /** The path of a dashboard request (anything not under {@code /v1}); empty for the API's. */
    private static Optional<List<String>> pagePath(HttpServletRequest request) {
        try {
            List<String> path = RequestDecoding.path(request);
            return path.isEmpty() || !path.get(0).equals("v1") ? Optional.of(path) : Optional.empty();
        } catch (ApiException e) {
            return Optional.empty();
        }
    }

    private ApiResponse answer(HttpServletRequest request) throws IOException {
        List<String> path = RequestDecoding.path(request);
        Caller caller = callers.resolve(request, csrf);
        Router.Found found = router.find(request.getMethod(), path);
        JsonNode body = null;
        if (found.mutation()) {
            csrf.check(request, caller);
            if (!caller.operator()) {
                throw new ApiException(403, ApiException.FORBIDDEN,
                        "role " + caller.role() + " cannot change anything");
            }
            body = RequestDecoding.body(request);
        }
        ApiRequest api = new ApiRequest(found.values(), RequestDecoding.query(request.getQueryString()), body, caller);
        return found.handle(api);
    }
}

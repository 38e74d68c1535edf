package io.ankusa.admin.http;

import io.ankusa.admin.page.Assets;
import io.ankusa.admin.page.Page;
import io.ankusa.admin.page.Pages;
import io.ankusa.admin.route.ApiException;
import io.ankusa.admin.route.Caller;
import io.ankusa.api.AnkusaException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves the dashboard beside the API: the pages (GET, behind the same access policy; a request
 * without a principal is sent to the sign-in page), the sign-in and sign-out of a session cookie,
 * and the files under {@code /assets/}. Every page carries a content security policy that runs
 * only the module's own scripts and lets no site frame it.
 */
final class PageService {

    /** The pages' policy: own scripts, styles and fetches only; no inline script, no framing. */
    static final String CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
            + "connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

    private static final Logger LOG = LoggerFactory.getLogger(PageService.class);

    private final Pages pages;
    private final CallerResolver callers;
    private final CsrfGuard csrf;
    private final Assets assets = new Assets();

    PageService(Pages pages, CallerResolver callers, CsrfGuard csrf) {
        this.pages = pages;
        this.callers = callers;
        this.csrf = csrf;
    }

    void serve(HttpServletRequest request, HttpServletResponse response, List<String> path) throws IOException {
        String base = RequestDecoding.mount(request);
        String method = request.getMethod();
        if (path.size() == 2 && path.get(0).equals("assets") && method.equals("GET")) {
            assets.serve(path.get(1), response);
            return;
        }
        if (path.size() == 1 && path.get(0).equals("signin")) {
            signIn(request, response, base);
            return;
        }
        if (path.size() == 1 && path.get(0).equals("signout") && method.equals("POST")) {
            signOut(request, response, base);
            return;
        }
        Caller caller;
        try {
            caller = callers.resolve(request, csrf);
        } catch (ApiException e) {
            if (e.status() == 401) {
                redirect(response, base + "/signin");
            } else {
                html(response, e.status(), pages.signIn(base, e.getMessage()));
            }
            return;
        }
        if (!method.equals("GET")) {
            html(response, 405, pages.error(caller, base, 405, "method_not_allowed", "pages are read with GET"));
            return;
        }
        try {
            Map<String, String> query = RequestDecoding.query(request.getQueryString());
            Page page = pages.render(path, query, caller, base);
            if (page.location() != null) {
                redirect(response, page.location());
            } else {
                html(response, page.status(), page.html());
            }
        } catch (ApiException e) {
            html(response, e.status(), pages.error(caller, base, e.status(), e.code(), e.getMessage()));
        } catch (AnkusaException e) {
            int status = LibraryErrors.status(e);
            html(response, status, pages.error(caller, base, status, e.error(), e.getMessage()));
        } catch (IllegalArgumentException e) {
            html(response, 400, pages.error(caller, base, 400, ApiException.BAD_REQUEST, e.getMessage()));
        } catch (RuntimeException e) {
            LOG.warn("dashboard page {} failed", path, e);
            html(response, 500, pages.error(caller, base, 500, "internal",
                    "the page failed; the node's log has the cause"));
        }
    }

    private void signIn(HttpServletRequest request, HttpServletResponse response, String base) throws IOException {
        if (request.getMethod().equals("GET")) {
            html(response, 200, pages.signIn(base, ""));
            return;
        }
        if (!request.getMethod().equals("POST")) {
            html(response, 405, pages.signIn(base, "sign in with the form"));
            return;
        }
        try {
            csrf.checkSite(request);
        } catch (ApiException e) {
            html(response, 403, pages.signIn(base, e.getMessage()));
            return;
        }
        String body = new String(request.getInputStream().readNBytes(RequestDecoding.MAX_BODY_BYTES),
                StandardCharsets.UTF_8);
        String token;
        try {
            token = RequestDecoding.query(body).getOrDefault("token", "").strip();
        } catch (ApiException e) {
            html(response, 400, pages.signIn(base, e.getMessage()));
            return;
        }
        Optional<String> session = token.isEmpty() ? Optional.empty() : callers.signIn(token);
        if (session.isEmpty()) {
            html(response, 401, pages.signIn(base, "that token is not accepted"));
            return;
        }
        response.addHeader("Set-Cookie", cookie(request, base, session.get(), Sessions.LIFETIME.toSeconds()));
        redirect(response, base + "/");
    }

    private void signOut(HttpServletRequest request, HttpServletResponse response, String base) throws IOException {
        try {
            Caller caller = callers.resolve(request, csrf);
            csrf.check(request, caller);
        } catch (ApiException e) {
            JsonResponses.write(response, e.status(), io.ankusa.admin.json.Nodes.error(e.code(), e.getMessage()));
            return;
        }
        callers.signOut(request);
        response.addHeader("Set-Cookie", cookie(request, base, "", 0));
        // htmx follows HX-Redirect; a redirect status would be followed inside its request instead.
        secure(response);
        response.setStatus(204);
        response.setHeader("HX-Redirect", base + "/signin");
    }

    private static String cookie(HttpServletRequest request, String base, String value, long maxAge) {
        return Sessions.COOKIE + "=" + value + "; Path=" + (base.isEmpty() ? "/" : base) + "; Max-Age=" + maxAge
                + "; HttpOnly; SameSite=Strict" + (request.isSecure() ? "; Secure" : "");
    }

    private static void redirect(HttpServletResponse response, String location) {
        secure(response);
        response.setStatus(303);
        response.setHeader("Location", location.isEmpty() ? "/" : location);
        response.setContentLength(0);
    }

    private static void html(HttpServletResponse response, int status, String html) throws IOException {
        byte[] bytes = html.getBytes(StandardCharsets.UTF_8);
        response.setStatus(status);
        secure(response);
        response.setHeader("Content-Type", "text/html; charset=utf-8");
        response.setContentLength(bytes.length);
        try (OutputStream out = response.getOutputStream()) {
            out.write(bytes);
        }
    }

    private static void secure(HttpServletResponse response) {
        response.setHeader("X-Content-Type-Options", "nosniff");
        response.setHeader("Content-Security-Policy", CSP);
        response.setHeader("X-Frame-Options", "DENY");
        // same-origin, not no-referrer: under no-referrer a browser sends "Origin: null" with a form's
        // POST, which the origin check of the sign-in and the mutations must refuse.
        response.setHeader("Referrer-Policy", "same-origin");
        response.setHeader("Cache-Control", "no-store");
    }
}

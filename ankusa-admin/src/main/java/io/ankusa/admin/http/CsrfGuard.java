package io.ankusa.admin.http;

import io.ankusa.admin.route.ApiException;
import io.ankusa.admin.route.Caller;
import jakarta.servlet.http.HttpServletRequest;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Locale;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * CSRF protection of the mutations. Each principal's token is an HMAC-SHA256 of its name under a
 * key drawn at random when the servlet is built (so tokens hold no state, differ per principal, and
 * end with the servlet); {@code GET /v1/session} hands it out and every {@code POST} must carry it
 * in {@value #HEADER}, compared in constant time. A {@code POST} that a browser marks as coming from
 * another site ({@code Sec-Fetch-Site} other than {@code same-origin} or {@code none}, or an
 * {@code Origin} other than the request's own host) is refused even with the token.
 */
public final class CsrfGuard {

    /** The header a mutation carries its token in. */
    public static final String HEADER = "X-Ankusa-CSRF";

    private static final String ALGORITHM = "HmacSHA256";

    private static final SecureRandom RANDOM = new SecureRandom();

    private final SecretKeySpec key;

    /** A guard with a fresh random key. */
    public CsrfGuard() {
        byte[] secret = new byte[32];
        RANDOM.nextBytes(secret);
        this.key = new SecretKeySpec(secret, ALGORITHM);
    }

    /**
     * The token of {@code principal}.
     *
     * @param principal the principal's name
     * @return its token (base64url, no padding)
     */
    public String token(String principal) {
        try {
            Mac mac = Mac.getInstance(ALGORITHM);
            mac.init(key);
            return Base64.getUrlEncoder().withoutPadding()
                    .encodeToString(mac.doFinal(principal.getBytes(StandardCharsets.UTF_8)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is not available", e);
        }
    }

    /**
     * Refuses a mutation that is cross-site or lacks the caller's token.
     *
     * @param request the servlet request
     * @param caller  its caller
     * @throws ApiException {@code csrf} (403)
     */
    void check(HttpServletRequest request, Caller caller) {
        checkSite(request);
        String given = request.getHeader(HEADER);
        byte[] expected = caller.csrfToken().getBytes(StandardCharsets.UTF_8);
        if (given == null || !MessageDigest.isEqual(expected, given.getBytes(StandardCharsets.UTF_8))) {
            throw csrf("a mutation needs the " + HEADER + " header that GET /v1/session gives");
        }
    }

    /**
     * Refuses a request that a browser marks as coming from another site (the sign-in form, which
     * has no token yet, is guarded by this alone).
     *
     * @param request the servlet request
     * @throws ApiException {@code csrf} (403)
     */
    void checkSite(HttpServletRequest request) {
        String site = request.getHeader("Sec-Fetch-Site");
        if (site != null && !site.equals("same-origin") && !site.equals("none")) {
            throw csrf("a cross-site request cannot change anything");
        }
        String origin = request.getHeader("Origin");
        if (origin != null && !sameHost(origin, request.getHeader("Host"))) {
            throw csrf("a request from another origin cannot change anything");
        }
    }

    private static boolean sameHost(String origin, String host) {
        if (host == null) {
            return false;
        }
        try {
            String authority = new URI(origin).getRawAuthority();
            return authority != null && authority.toLowerCase(Locale.ROOT).equals(host.toLowerCase(Locale.ROOT));
        } catch (URISyntaxException e) {
            return false;
        }
    }

    private static ApiException csrf(String message) {
        return new ApiException(403, "csrf", message);
    }
}

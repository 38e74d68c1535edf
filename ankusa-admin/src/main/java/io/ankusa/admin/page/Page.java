package io.ankusa.admin.page;

import java.util.Objects;

/**
 * A rendered page, or where to send the browser instead.
 *
 * @param status   the HTTP status
 * @param html     the page, empty for a redirect
 * @param location the redirect's target, or {@code null} for a page
 */
public record Page(int status, String html, String location) {

    /** Validates. */
    public Page {
        Objects.requireNonNull(html, "html");
    }

    static Page ok(String html) {
        return new Page(200, html, null);
    }

    static Page redirect(String location) {
        return new Page(303, "", location);
    }
}

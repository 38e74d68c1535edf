package io.ankusa.admin;

/** What a principal may do with the admin API. */
public enum Role {
    /** May read: every {@code GET} route (payloads only when the policy also allows them). */
    VIEWER,
    /** May also change things: every {@code POST} route (with the CSRF token). */
    OPERATOR
}

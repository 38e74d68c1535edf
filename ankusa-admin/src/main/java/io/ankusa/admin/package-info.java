/**
 * The admin API's public entry points: {@link io.ankusa.admin.AdminServlet} (mount it in any
 * Servlet 6 host), {@link io.ankusa.admin.AdminServer} (its own Jetty port, loopback by default),
 * and the application's {@link io.ankusa.admin.AccessPolicy} with its {@link io.ankusa.admin.Role}s.
 *
 * <p>Why these parts. The API is a servlet so that it mounts wherever the application already
 * serves HTTP (Spring Boot 4, Jetty, Tomcat), at the path and behind the authentication the host
 * chooses; the Servlet API is the one interface those hosts share. Its own port, for a node that
 * serves no HTTP, is embedded Jetty 12.1: kept up to date, small to embed, Servlet 6, Java 17, and
 * an optional dependency. JSON is Jackson's tree and generator API, which needs no reflection and so
 * nothing opened to Jackson under JPMS. The JSON handlers ({@code io.ankusa.admin.route}) know
 * nothing of servlets ({@code io.ankusa.admin.http} holds the plumbing), so other front ends can
 * sit on the same handlers.
 *
 * <p>Security: no policy, no API; every mutation is a {@code POST} with the caller's CSRF token
 * and no cross-site origin; every answer is JSON with {@code nosniff}, a CSP that allows nothing,
 * no framing, no referrer and no caching; tenant ids, hook ids, headers and payloads are JSON string
 * values, never markup.
 */
package io.ankusa.admin;

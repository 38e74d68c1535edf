/**
 * Ankusa's admin API: a versioned JSON API over a running node's public {@code Queue},
 * {@code Replayer} and {@code Pipeline}, as a servlet to mount in a host
 * ({@link io.ankusa.admin.AdminServlet}) or on a loopback port of its own
 * ({@link io.ankusa.admin.AdminServer}), behind the application's {@link io.ankusa.admin.AccessPolicy}.
 * docs/admin.md describes the routes, the error codes and how to secure it.
 */
module io.ankusa.admin {
    requires transitive io.ankusa.api;
    requires transitive io.ankusa.dispatch;
    requires transitive io.ankusa.queue;
    // AdminServlet is an HttpServlet: the host provides the Servlet API.
    requires transitive jakarta.servlet;
    requires com.fasterxml.jackson.core;
    requires com.fasterxml.jackson.databind;
    requires org.slf4j;
    // The own-port server only; an application that mounts the servlet in its own host needs no Jetty.
    requires static org.eclipse.jetty.server;
    requires static org.eclipse.jetty.ee10.servlet;

    exports io.ankusa.admin;
}

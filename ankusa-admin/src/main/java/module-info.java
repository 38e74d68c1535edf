/**
 * Ankusa's admin API: a versioned JSON API over a running node's public {@code Queue},
 * {@code Replayer} and {@code Pipeline}, as a servlet to mount in a host
 * ({@link io.ankusa.admin.AdminServlet}) or on a loopback port of its own
 * ({@link io.ankusa.admin.AdminServer}), behind the application's {@link io.ankusa.admin.AccessPolicy},
 * with the operator dashboard's pages beside it at the mount point. docs/admin.md describes the routes,
 * the error codes and how to secure it; docs/dashboard.md the pages.
 */
// The webjars the dashboard serves ship no module descriptor: they are automatic modules.
@SuppressWarnings("requires-automatic")
module io.ankusa.admin {
    requires transitive io.ankusa.api;
    requires transitive io.ankusa.dispatch;
    requires transitive io.ankusa.queue;
    // AdminServlet is an HttpServlet: the host provides the Servlet API.
    requires transitive jakarta.servlet;
    requires com.fasterxml.jackson.core;
    requires com.fasterxml.jackson.databind;
    requires org.slf4j;
    requires com.samskivert.jmustache;
    requires htmx.org;
    requires uplot;
    // The own-port server only; an application that mounts the servlet in its own host needs no Jetty.
    requires static org.eclipse.jetty.server;
    requires static org.eclipse.jetty.ee10.servlet;

    exports io.ankusa.admin;
}

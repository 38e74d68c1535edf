package io.ankusa.tests.admin;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.admin.AccessPolicy;
import io.ankusa.admin.AdminServlet;
import io.ankusa.admin.Role;
import io.ankusa.tests.admin.AdminClient.Reply;
import io.ankusa.tests.dispatch.DispatchFixture;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.Filter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import java.nio.file.Path;
import java.security.Principal;
import java.util.EnumSet;
import java.util.Map;
import java.util.Optional;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.http.UriCompliance;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link AdminServlet} mounted in an application's own host, as a Spring Boot or Jetty application
 * mounts it: a Jetty context at {@code /ops}, the servlet at {@code /admin/*} (and another as the
 * context's default servlet), and the host's own authentication (a filter that sets the request's
 * user principal) instead of bearer tokens.
 */
class AdminServletMountTest {

    @TempDir
    Path dir;

    /** The host's authentication: the user named by a header (a stand-in for the host's login). */
    private static final Filter HOST_LOGIN = (request, response, chain) -> {
        String user = ((HttpServletRequest) request).getHeader("X-Host-User");
        chain.doFilter(user == null ? request : new HttpServletRequestWrapper((HttpServletRequest) request) {
            @Override
            public Principal getUserPrincipal() {
                return () -> user;
            }
        }, response);
    };

    /** alice operates, bob views, anyone else the host lets in has no role. */
    private static final AccessPolicy BY_NAME = principal -> switch (principal.getName()) {
        case "alice" -> Optional.of(Role.OPERATOR);
        case "bob" -> Optional.of(Role.VIEWER);
        default -> Optional.empty();
    };

    private static Server host(AdminServlet servlet, AdminServlet asDefault) throws Exception {
        Server server = new Server();
        HttpConfiguration http = new HttpConfiguration();
        // What a host does for tenant ids holding '/' (sent as %2F): docs/admin.md, "Mounting the servlet".
        http.setUriCompliance(UriCompliance.DEFAULT.with("tenant ids",
                UriCompliance.AMBIGUOUS_VIOLATIONS.toArray(new UriCompliance.Violation[0])));
        ServerConnector connector = new ServerConnector(server, new HttpConnectionFactory(http));
        connector.setHost("127.0.0.1");
        server.addConnector(connector);
        ServletContextHandler context = new ServletContextHandler("/ops");
        context.getServletHandler().setDecodeAmbiguousURIs(true);
        context.addFilter(new FilterHolder(HOST_LOGIN), "/*", EnumSet.of(DispatcherType.REQUEST));
        context.addServlet(new ServletHolder(servlet), "/admin/*");
        context.addServlet(new ServletHolder(asDefault), "/");
        server.setHandler(context);
        server.start();
        return server;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void theRoutesAnswerBelowTheMountWithTheHostsPrincipal(String backend) throws Exception {
        try (DispatchFixture f = DispatchFixture.open(backend, dir)) {
            f.ingest("h1", "acme", 0);
            f.ingest("h2", "shop/eu", 0, 1);
            Server server = host(AdminServlet.builder(f.queue()).accessPolicy(BY_NAME).build(),
                    AdminServlet.builder(f.queue()).accessPolicy(BY_NAME).build());
            try {
                AdminClient api = new AdminClient(((ServerConnector) server.getConnectors()[0]).getLocalPort());
                Map<String, String> alice = Map.of("X-Host-User", "alice");
                Map<String, String> bob = Map.of("X-Host-User", "bob");

                Reply tenant = api.get("/ops/admin/v1/tenants/acme", null, bob);
                assertThat(tenant.status()).isEqualTo(200);
                assertThat(tenant.json().at("/stats/pending").asLong()).isEqualTo(1);
                Reply slashed = api.get("/ops/admin/v1/tenants/shop%2Feu", null, bob);
                assertThat(slashed.json().path("tenant").asText()).as("one segment, decoded").isEqualTo("shop/eu");
                assertThat(slashed.json().at("/stats/pending").asLong()).isEqualTo(2);
                Reply session = api.get("/ops/admin/v1/session", null, alice);
                assertThat(session.json().path("principal").asText()).isEqualTo("alice");
                assertThat(session.json().path("role").asText()).isEqualTo("operator");

                Reply disabled = api.post("/ops/admin/v1/tenants/acme/endpoints/0/disable", null,
                        session.json().path("csrfToken").asText(), "", alice);
                assertThat(disabled.status()).isEqualTo(200);
                assertThat(disabled.json().path("actor").asText()).isEqualTo("alice");
                assertThat(f.queue().endpoints("acme", 10)).hasSize(1);

                assertThat(api.get("/ops/admin/v1/stats", null, Map.of()).error()).isEqualTo("unauthenticated");
                assertThat(api.get("/ops/admin/v1/stats", null, Map.of("X-Host-User", "carol")).error())
                        .as("authenticated by the host, no role in the policy").isEqualTo("forbidden");
                assertThat(api.get("/ops/admin/v1/stats", "a-bearer-token-the-policy-does-not-know", Map.of())
                        .error()).isEqualTo("unauthenticated");
                assertThat(api.get("/ops/admin/v1/nothing", null, bob).error()).as("no such route below /v1")
                        .isEqualTo("not_found");
                Reply asDefault = api.get("/ops/v1/tenants/shop%2Feu", null, bob);
                assertThat(asDefault.status()).as("the default servlet answers below the context").isEqualTo(200);
                assertThat(asDefault.json().path("tenant").asText()).isEqualTo("shop/eu");
            } finally {
                server.stop();
            }
        }
    }
}

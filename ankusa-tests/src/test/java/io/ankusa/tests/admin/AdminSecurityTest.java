package io.ankusa.tests.admin;

import static io.ankusa.tests.admin.AdminClient.seg;
import static io.ankusa.tests.admin.AdminNode.OPERATOR;
import static io.ankusa.tests.admin.AdminNode.VIEWER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.ankusa.admin.AccessPolicy;
import io.ankusa.admin.AdminServer;
import io.ankusa.admin.AdminServlet;
import io.ankusa.admin.NonLoopbackBindException;
import io.ankusa.admin.Role;
import io.ankusa.api.Hook;
import io.ankusa.api.Receipt;
import io.ankusa.tests.admin.AdminClient.Reply;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The admin API's defences over a real node on each backend: authentication, roles, CSRF and
 * origin checks, tenant scope, payload access, the loopback bind, and hostile producer strings
 * shown as JSON text only.
 */
class AdminSecurityTest {

    private static final String SCRIPT = "<script>alert(1)</script>";
    private static final String IMG = "\"><img src=x onerror=alert(1)>";
    private static final String JS = "javascript:alert(1)";
    private static final String BIDI = "\u202Egnp.exe";

    @TempDir
    Path dir;

    /**
     * The security headers every answer carries, and its JSON content type (the API sets
     * {@code application/json; charset=utf-8}; Jetty writes the same media type without the space).
     */
    static void assertSecured(Reply reply) {
        assertThat(reply.header("Content-Type").replace(" ", "").toLowerCase(java.util.Locale.ROOT))
                .isEqualTo("application/json;charset=utf-8");
        assertThat(reply.header("X-Content-Type-Options")).isEqualTo("nosniff");
        assertThat(reply.header("Content-Security-Policy")).isEqualTo("default-src 'none'; frame-ancestors 'none'");
        assertThat(reply.header("X-Frame-Options")).isEqualTo("DENY");
        assertThat(reply.header("Referrer-Policy")).isEqualTo("no-referrer");
        assertThat(reply.header("Cache-Control")).isEqualTo("no-store");
    }

    private static List<String> tenants(Reply reply, String array) {
        List<String> out = new ArrayList<>();
        reply.json().path(array).forEach(n -> out.add(n.path("tenant").asText()));
        return out;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    @DisplayName("a mutation without the CSRF token is refused")
    void aMutationWithoutTheCsrfTokenIsRefused(String backend) {
        try (AdminNode node = AdminNode.seeded(backend, dir)) {
            AdminClient api = node.client;
            String path = "/v1/tenants/acme/endpoints/0/disable";
            String viewerToken = api.csrf(VIEWER);

            List<Reply> refused = List.of(api.post(path, OPERATOR, null, ""),
                    api.post(path, OPERATOR, "", ""),
                    api.post(path, OPERATOR, viewerToken, ""),
                    api.post(path, OPERATOR, api.csrf(OPERATOR) + "x", ""),
                    api.post(path, OPERATOR, api.csrf(OPERATOR), "", Map.of("Sec-Fetch-Site", "cross-site")),
                    api.post(path, OPERATOR, api.csrf(OPERATOR), "", Map.of("Origin", "http://evil.example")));

            assertThat(refused).extracting(Reply::status).containsOnly(403);
            assertThat(refused).extracting(Reply::error).containsOnly("csrf");
            refused.forEach(AdminSecurityTest::assertSecured);
            assertThat(node.fixture.queue().endpoints("acme", 10)).as("nothing changed").isEmpty();
            assertThat(node.fixture.queue().auditTrail(10)).hasSize(1);

            Reply sameOrigin = api.post(path, OPERATOR, api.csrf(OPERATOR), "",
                    Map.of("Sec-Fetch-Site", "same-origin", "Origin", "http://127.0.0.1:" + node.server.port()));
            assertThat(sameOrigin.status()).as("the token from the same origin").isEqualTo(200);
            assertThat(node.fixture.queue().endpoints("acme", 10)).hasSize(1);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    @DisplayName("a hostile hook id is shown as text")
    void aHostileHookIdIsShownAsText(String backend) {
        try (AdminNode node = AdminNode.open(backend, dir, AdminNode.tokens().withPayloads(), n -> n)) {
            String tenant = IMG + SCRIPT;
            String big = "A".repeat(1 << 20);
            String text = SCRIPT + IMG + JS + BIDI;
            byte[] payload = (text + big.substring(text.getBytes(StandardCharsets.UTF_8).length))
                    .getBytes(StandardCharsets.UTF_8);
            assertThat(payload).hasSize(1 << 20);
            Map<String, String> headers = new LinkedHashMap<>();
            headers.put("x-script", SCRIPT);
            headers.put("x-img", IMG);
            headers.put("x-js", JS);
            Receipt receipt = node.ingest(Hook.builder().id(SCRIPT).sourceId(JS).tenantId(tenant).headers(headers)
                    .idempotencyKey(BIDI + SCRIPT).payload(payload).sinks(0).build());

            Reply reply = node.client.get("/v1/tenants/" + seg(tenant) + "/hooks/" + receipt.seq() + "?payload=true",
                    VIEWER);

            assertThat(reply.status()).isEqualTo(200);
            assertSecured(reply);
            JsonNode hook = reply.json();
            assertThat(hook.path("tenant").asText()).isEqualTo(tenant);
            assertThat(hook.path("hookId").asText()).isEqualTo(SCRIPT);
            assertThat(hook.path("source").asText()).isEqualTo(JS);
            assertThat(hook.path("idempotencyKey").asText()).isEqualTo(BIDI + SCRIPT);
            assertThat(hook.at("/headers/x-script").asText()).isEqualTo(SCRIPT);
            assertThat(hook.at("/headers/x-img").asText()).isEqualTo(IMG);
            assertThat(hook.at("/headers/x-js").asText()).isEqualTo(JS);
            assertThat(Base64.getDecoder().decode(hook.path("payload").asText())).isEqualTo(payload);
            // Indexes, not the body: a failure should not print a 1 MiB answer.
            assertThat(List.of(reply.raw().indexOf('<'), reply.raw().indexOf('>'), reply.raw().indexOf('\u202E')))
                    .as("no markup and no bidi control in the bytes, only JSON escapes").containsOnly(-1);
            assertThat(reply.raw().indexOf("\\u003Cscript\\u003E")).isNotNegative();

            JsonNode listed = node.client.get("/v1/tenants", VIEWER).json();
            assertThat(listed.at("/tenants/0/tenant").asText()).isEqualTo(tenant);
            JsonNode detail = node.client.get("/v1/tenants/" + seg(tenant), VIEWER).json();
            assertThat(detail.path("tenant").asText()).isEqualTo(tenant);
            Reply missing = node.client.get("/v1/tenants/" + seg(SCRIPT + BIDI), VIEWER);
            assertThat(missing.error()).isEqualTo("not_found");
            assertThat(missing.json().path("message").asText()).contains(SCRIPT + BIDI);
            assertThat(missing.raw()).doesNotContain("<", "\u202E");
            assertSecured(missing);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void noTokenOrAnUnknownOneIsUnauthenticated(String backend) {
        try (AdminNode node = AdminNode.seeded(backend, dir)) {
            List<Reply> refused = List.of(node.client.get("/v1/stats", null),
                    node.client.get("/v1/stats", "not-a-token-of-the-policy"),
                    node.client.get("/v1/nothing-here", null),
                    node.client.post("/v1/tenants/acme/purge", null, null, "{\"confirm\": \"acme\"}"));
            assertThat(refused).extracting(Reply::status).containsOnly(401);
            assertThat(refused).extracting(Reply::error).containsOnly("unauthenticated");
            assertThat(refused.get(0).header("WWW-Authenticate")).isEqualTo("Bearer");
            refused.forEach(AdminSecurityTest::assertSecured);
            assertThat(node.fixture.queue().deadForTenant("acme").dead()).isEqualTo(2);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aViewerCannotChangeAnything(String backend) {
        try (AdminNode node = AdminNode.seeded(backend, dir)) {
            String csrf = node.client.csrf(VIEWER);
            List<Reply> refused = List.of(
                    node.client.post("/v1/tenants/acme/purge", VIEWER, csrf, "{\"confirm\": \"acme\"}"),
                    node.client.post("/v1/tenants/acme/endpoints/0/disable", VIEWER, csrf, ""),
                    node.client.post("/v1/tenants/acme/hooks/" + node.acmeDead1.seq() + "/replay", VIEWER, csrf,
                            "{\"sink\": 0}"));
            assertThat(refused).extracting(Reply::status).containsOnly(403);
            assertThat(refused).extracting(Reply::error).containsOnly("forbidden");
            assertThat(node.fixture.queue().deadForTenant("acme").dead()).isEqualTo(2);
            assertThat(node.fixture.queue().endpoints("acme", 10)).isEmpty();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aTenantScopeHidesOtherTenants(String backend) {
        AccessPolicy scoped = AdminNode.tokens().withTenantScope(t -> t.startsWith("acme") || t.equals("initech"));
        try (AdminNode node = AdminNode.seeded(backend, dir, scoped)) {
            AdminClient api = node.client;
            assertThat(tenants(api.get("/v1/tenants", VIEWER), "tenants"))
                    .containsExactly("acme", "acme-labs", "initech");
            assertThat(api.get("/v1/tenants/globex", VIEWER).error()).isEqualTo("not_found");
            assertThat(api.get("/v1/tenants/globex", VIEWER).status()).isEqualTo(404);
            assertThat(api.get("/v1/tenants/umbrella/dead", VIEWER).error()).isEqualTo("not_found");
            assertThat(api.get("/v1/tenants/globex/hooks/" + node.globexQuarantined.seq(), VIEWER).error())
                    .isEqualTo("not_found");
            assertThat(api.get("/v1/quarantine", VIEWER).json().path("quarantined")).as("globex's row").isEmpty();
            assertThat(tenants(api.get("/v1/endpoints", VIEWER), "endpoints")).containsExactly("initech");
            Reply purge = api.post("/v1/tenants/umbrella/purge", OPERATOR, api.csrf(OPERATOR),
                    "{\"confirm\": \"umbrella\"}");
            assertThat(purge.error()).isEqualTo("not_found");
            assertThat(node.fixture.queue().deadForTenant("umbrella").dead()).isEqualTo(1);
            assertThat(api.get("/v1/tenants/acme", VIEWER).status()).isEqualTo(200);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aPayloadIsHiddenUnlessThePolicyShowsIt(String backend) {
        AccessPolicy payloadsOfAcme = new AccessPolicy() {
            private final AccessPolicy tokens = AdminNode.tokens();

            @Override
            public java.util.Optional<Role> role(java.security.Principal principal) {
                return tokens.role(principal);
            }

            @Override
            public java.util.Optional<java.security.Principal> authenticate(String token) {
                return tokens.authenticate(token);
            }

            @Override
            public boolean payloadsVisible(java.security.Principal principal, String tenant) {
                return tenant.equals("acme") && tokens.role(principal).orElseThrow() == Role.OPERATOR;
            }
        };
        try (AdminNode node = AdminNode.seeded(backend, dir, payloadsOfAcme)) {
            String acme = "/v1/tenants/acme/hooks/" + node.acmeRetry.seq();
            Reply hidden = node.client.get(acme + "?payload=true", VIEWER);
            assertThat(hidden.status()).isEqualTo(403);
            assertThat(hidden.error()).isEqualTo("payload_forbidden");
            assertThat(hidden.raw()).doesNotContain("retry-a3");
            assertThat(node.client.get(acme, VIEWER).json().has("payload")).isFalse();

            JsonNode shown = node.client.get(acme + "?payload=true", OPERATOR).json();
            assertThat(new String(Base64.getDecoder().decode(shown.path("payload").asText()), StandardCharsets.UTF_8))
                    .isEqualTo("{\"id\":\"retry-a3\"}");
            assertThat(node.client.get("/v1/tenants/umbrella/hooks/" + node.umbrellaDead.seq() + "?payload=true",
                    OPERATOR).error())
                    .as("another tenant's payloads").isEqualTo("payload_forbidden");
            assertThat(node.client.get(acme + "?payload=yes", OPERATOR).error()).isEqualTo("bad_request");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aNonLoopbackBindIsRefusedUnlessAllowedAndNoPolicyBuildsNothing(String backend) {
        try (AdminNode node = AdminNode.open(backend, dir, AdminNode.tokens(), n -> n)) {
            AdminServer.Builder anyAddress = AdminServer.builder(node.fixture.queue())
                    .accessPolicy(AdminNode.tokens()).host("0.0.0.0");
            assertThatThrownBy(anyAddress::build).isInstanceOf(NonLoopbackBindException.class)
                    .hasMessageContaining("0.0.0.0");
            assertThat(((NonLoopbackBindException) org.assertj.core.api.Assertions.catchThrowable(anyAddress::build))
                    .error()).isEqualTo("non_loopback_bind");
            try (AdminServer allowed = anyAddress.allowNonLoopback(true).build().start()) {
                assertThat(allowed.port()).isPositive();
            }
            try (AdminServer loopback = AdminServer.builder(node.fixture.queue()).accessPolicy(AdminNode.tokens())
                    .host("::1").build()) {
                assertThat(loopback).isNotNull();
            }
            assertThatThrownBy(() -> AdminServer.builder(node.fixture.queue()).build())
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("access policy");
            assertThatThrownBy(() -> AdminServlet.builder(node.fixture.queue()).build())
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("access policy");
            assertThatThrownBy(() -> AccessPolicy.tokens(Map.of("short", Role.VIEWER)))
                    .isInstanceOf(IllegalArgumentException.class);
        }
    }
}

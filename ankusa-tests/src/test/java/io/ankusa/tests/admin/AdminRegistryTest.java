package io.ankusa.tests.admin;

import static io.ankusa.tests.admin.AdminNode.OPERATOR;
import static io.ankusa.tests.admin.AdminNode.VIEWER;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.ankusa.api.AuditAction;
import io.ankusa.api.AuditEntry;
import io.ankusa.api.RegisteredEndpoint;
import io.ankusa.tests.admin.AdminClient.Reply;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A tenant's registered endpoints through the admin API, over a real node on each backend: read by
 * viewers without secrets, changed by operators (POST, CSRF, audited with the principal), and every
 * registry refusal answered with its reason's code.
 */
class AdminRegistryTest {

    private static final String BILLING = "{\"id\": \"billing\", \"url\": \"https://hooks.example.com/in\", "
            + "\"description\": \"billing\", \"eventTypes\": [\"invoice.*\"], \"rateLimit\": 50, \"maxInflight\": 4, "
            + "\"headers\": {\"X-Token\": \"t0ps3cret\"}, \"metadata\": {\"owner\": \"ops\"}}";

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void anOperatorRegistersUpdatesRotatesAndRemovesAnEndpointAndViewersSeeNoSecret(String backend) {
        try (AdminNode node = AdminNode.seeded(backend, dir)) {
            AdminClient api = node.client;
            String csrf = api.csrf(OPERATOR);
            String principal = api.get("/v1/session", OPERATOR).json().path("principal").asText();

            Reply added = api.post("/v1/tenants/acme/registry", OPERATOR, csrf, BILLING);

            assertThat(added.status()).isEqualTo(200);
            assertThat(added.json().path("action").asText()).isEqualTo("endpoint-register");
            JsonNode endpoint = added.json().path("result");
            RegisteredEndpoint stored = node.fixture.queue().endpointRegistry().endpoint("acme", "billing")
                    .orElseThrow();
            assertThat(endpoint.path("sink").asInt()).isEqualTo(stored.sink());
            assertThat(endpoint.path("url").asText()).isEqualTo("https://hooks.example.com/in");
            assertThat(endpoint.at("/eventTypes/0").asText()).isEqualTo("invoice.*");
            assertThat(endpoint.path("rateLimit").asInt()).isEqualTo(50);
            assertThat(endpoint.at("/headers/X-Token").asText()).isEqualTo("t0ps3cret");
            assertThat(endpoint.at("/metadata/owner").asText()).isEqualTo("ops");
            assertThat(endpoint.at("/secrets/0/secret").asText()).isEqualTo(stored.secrets().get(0).secret())
                    .startsWith("whsec_");

            Reply viewed = api.get("/v1/tenants/acme/registry", VIEWER);
            assertThat(viewed.status()).isEqualTo(200);
            assertThat(viewed.json().at("/endpoints/0/id").asText()).isEqualTo("billing");
            assertThat(viewed.json().at("/endpoints/0/secrets/0/secret").isNull()).isTrue();
            assertThat(viewed.json().at("/endpoints/0/headers/X-Token").isNull()).isTrue();
            assertThat(viewed.raw()).doesNotContain(stored.secrets().get(0).secret(), "t0ps3cret");
            assertThat(api.get("/v1/tenants/acme/registry/billing", VIEWER).raw())
                    .doesNotContain(stored.secrets().get(0).secret()).contains("hooks.example.com");
            assertThat(api.get("/v1/tenants/acme/registry/billing", OPERATOR).json().at("/secrets/0/secret").asText())
                    .isEqualTo(stored.secrets().get(0).secret());

            Reply page = api.get("/tenants/acme", OPERATOR);
            assertThat(page.status()).isEqualTo(200);
            String registered = page.raw().substring(page.raw().indexOf("id=\"registered\""));
            assertThat(registered).contains(">billing<", "https://hooks.example.com/in", ">invoice.*<", "enabled")
                    .as("the page shows no secret, even to an operator")
                    .doesNotContain(stored.secrets().get(0).secret(), "t0ps3cret");
            assertThat(api.get("/tenants/globex", VIEWER).raw()).contains("No endpoint is registered");

            Reply updated = api.post("/v1/tenants/acme/registry/billing", OPERATOR, csrf,
                    "{\"url\": \"https://hooks.example.com/v2\", \"eventTypes\": [\"invoice.paid\"]}");
            assertThat(updated.status()).isEqualTo(200);
            assertThat(node.fixture.queue().endpointRegistry().endpoint("acme", "billing").orElseThrow().url())
                    .hasToString("https://hooks.example.com/v2");
            Reply rotated = api.post("/v1/tenants/acme/registry/billing/rotate", OPERATOR, csrf,
                    "{\"overlapSeconds\": 600}");
            assertThat(rotated.status()).isEqualTo(200);
            assertThat(rotated.json().at("/result/secrets").size()).as("the old secret signs during the overlap")
                    .isEqualTo(2);
            assertThat(rotated.json().at("/result/secrets/0/expiresAt").isTextual()).isTrue();
            assertThat(rotated.json().at("/result/secrets/1/expiresAt").isNull()).isTrue();
            Reply removed = api.post("/v1/tenants/acme/registry/billing/remove", OPERATOR, csrf, "");
            assertThat(removed.status()).isEqualTo(200);
            assertThat(node.fixture.queue().endpointRegistry().endpoints("acme")).isEmpty();
            assertThat(api.get("/v1/tenants/acme/registry/billing", VIEWER).error()).isEqualTo("unknown_endpoint");

            List<AuditEntry> trail = node.fixture.queue().auditTrail(4);
            assertThat(trail).extracting(AuditEntry::action).containsExactly(AuditAction.ENDPOINT_REMOVE,
                    AuditAction.ENDPOINT_ROTATE, AuditAction.ENDPOINT_UPDATE, AuditAction.ENDPOINT_REGISTER);
            assertThat(trail).extracting(AuditEntry::actor).containsOnly(Optional.of(principal));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void everyRefusalIsTypedAndAViewerOrAPostWithoutTheCsrfTokenChangesNothing(String backend) {
        try (AdminNode node = AdminNode.seeded(backend, dir)) {
            AdminClient api = node.client;
            String csrf = api.csrf(OPERATOR);
            String path = "/v1/tenants/acme/registry";
            assertThat(api.post(path, OPERATOR, csrf, BILLING).status()).isEqualTo(200);

            assertRefused(api.post(path, OPERATOR, csrf, BILLING), 409, "duplicate_id");
            assertRefused(api.post(path, OPERATOR, csrf, "{\"url\": \"ftp://x.example/\"}"), 400, "invalid_url");
            assertRefused(api.post(path, OPERATOR, csrf, "{\"url\": \"http://127.0.0.1/\"}"), 400, "address_refused");
            assertRefused(api.post(path, OPERATOR, csrf, "{\"url\": \"http://10.1.2.3/\"}"), 400, "address_refused");
            assertRefused(api.post(path, OPERATOR, csrf, "{\"url\": \"https://a.example/\", \"eventTypes\": [\"a..b\"]}"),
                    400, "invalid_event_type");
            assertRefused(api.post(path, OPERATOR, csrf, "{\"description\": \"no url\"}"), 400, "invalid_url");
            assertRefused(api.post(path, OPERATOR, csrf, "{\"url\": \"https://a.example/\", \"rateLimit\": \"x\"}"), 400,
                    "bad_request");
            assertRefused(api.post("/v1/tenants/acme/registry/billing/rotate", OPERATOR, csrf,
                    "{\"overlapSeconds\": -1}"), 400, "bad_request");
            assertRefused(api.post("/v1/tenants/acme/registry/nope/remove", OPERATOR, csrf, ""), 404,
                    "unknown_endpoint");
            assertRefused(api.post("/v1/tenants/nobody/registry/billing/rotate", OPERATOR, csrf, ""), 404,
                    "unknown_tenant");
            assertRefused(api.post(path, VIEWER, api.csrf(VIEWER), "{\"url\": \"https://b.example/\"}"), 403,
                    "forbidden");
            assertRefused(api.post("/v1/tenants/acme/registry/billing/remove", OPERATOR, null, ""), 403, "csrf");

            assertThat(node.fixture.queue().endpointRegistry().endpoints("acme")).extracting(RegisteredEndpoint::id)
                    .containsExactly("billing");
            assertThat(node.fixture.queue().auditTrail(1)).extracting(AuditEntry::action)
                    .containsExactly(AuditAction.ENDPOINT_REGISTER);
        }
    }

    private static void assertRefused(Reply reply, int status, String error) {
        assertThat(reply.status()).as(reply.raw()).isEqualTo(status);
        assertThat(reply.error()).isEqualTo(error);
        AdminSecurityTest.assertSecured(reply);
    }
}

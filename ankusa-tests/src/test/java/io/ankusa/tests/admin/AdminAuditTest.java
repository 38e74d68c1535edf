package io.ankusa.tests.admin;

import static io.ankusa.tests.admin.AdminNode.OPERATOR;
import static io.ankusa.tests.admin.AdminNode.VIEWER;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.ankusa.admin.AccessPolicy;
import io.ankusa.admin.Role;
import io.ankusa.api.AuditAction;
import io.ankusa.api.AuditEntry;
import io.ankusa.tests.admin.AdminClient.Reply;
import java.nio.file.Path;
import java.security.Principal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The admin API's mutations in the queue's audit trail, over a real node on each backend: each entry
 * names the principal that asked, the API and the dashboard's audit page show it (as text), and
 * entries recorded without one show none.
 */
class AdminAuditTest {

    private static final String HOSTILE = "<script>alert(1)</script>\"><img src=x onerror=alert(1)>";

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    @DisplayName("every mutation through the admin API is audited with the token's principal")
    void everyMutationThroughTheAdminApiIsAuditedWithTheTokensPrincipal(String backend) {
        try (AdminNode node = AdminNode.seeded(backend, dir)) {
            AdminClient api = node.client;
            String csrf = api.csrf(OPERATOR);
            String principal = api.get("/v1/session", OPERATOR).json().path("principal").asText();
            int seeded = node.fixture.queue().auditTrail(100).size();
            assertThat(node.fixture.queue().auditTrail(100)).as("the seed's entries name no one")
                    .allSatisfy(e -> assertThat(e.actor()).isEmpty());

            List<Reply> replies = new ArrayList<>();
            replies.add(api.post("/v1/tenants/acme/hooks/" + node.acmeDead1.seq() + "/replay", OPERATOR, csrf,
                    "{\"sink\": 0}"));
            replies.add(api.post("/v1/replay", OPERATOR, csrf, "{\"deliveries\": [{\"tenant\": \"acme\", \"seq\": "
                    + node.acmeDead2.seq() + ", \"sink\": 0}]}"));
            Reply job = api.post("/v1/replays", OPERATOR, csrf, "{\"tenant\": \"umbrella\"}");
            assertThat(job.status()).isEqualTo(202);
            assertThat(awaitFinished(api, job.json().path("id").asText()).path("replayed").asLong()).isEqualTo(1);
            replies.add(api.post("/v1/tenants/acme/endpoints/0/disable", OPERATOR, csrf, ""));
            replies.add(api.post("/v1/tenants/acme/endpoints/0/enable", OPERATOR, csrf, ""));
            replies.add(api.post("/v1/tenants/globex/quarantine/purge", OPERATOR, csrf, ""));
            replies.add(api.post("/v1/tenants/acme/purge", OPERATOR, csrf, "{\"confirm\": \"acme\"}"));
            replies.add(api.post("/v1/tenants/umbrella/erase", OPERATOR, csrf, "{\"confirm\": \"umbrella\"}"));
            assertThat(replies).extracting(Reply::status).containsOnly(200);

            List<AuditEntry> made = node.fixture.queue().auditTrail(100);
            made = made.subList(0, made.size() - seeded);
            assertThat(made).extracting(AuditEntry::action).containsExactly(AuditAction.ERASE, AuditAction.PURGE,
                    AuditAction.QUARANTINE_PURGE, AuditAction.ENDPOINT_ENABLE, AuditAction.ENDPOINT_DISABLE,
                    AuditAction.REPLAY, AuditAction.REPLAY, AuditAction.REPLAY);
            assertThat(made).extracting(AuditEntry::actor).containsOnly(Optional.of(principal));

            JsonNode entries = api.get("/v1/audit", VIEWER).json().path("entries");
            assertThat(entries.get(0).path("actor").asText()).isEqualTo(principal);
            assertThat(entries.get(entries.size() - 1).path("actor").isNull()).as("an entry without an actor")
                    .isTrue();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    @DisplayName("a hostile principal is audited and shown as text")
    void aHostilePrincipalIsAuditedAndShownAsText(String backend) {
        AccessPolicy policy = new AccessPolicy() {
            @Override
            public Optional<Role> role(Principal principal) {
                return Optional.of(Role.OPERATOR);
            }

            @Override
            public Optional<Principal> authenticate(String token) {
                return token.equals(OPERATOR) ? Optional.of(() -> HOSTILE + "\n\u202E") : Optional.empty();
            }
        };
        try (AdminNode node = AdminNode.seeded(backend, dir, policy)) {
            AdminClient api = node.client;

            Reply disabled = api.post("/v1/tenants/acme/endpoints/0/disable", OPERATOR, api.csrf(OPERATOR), "");

            assertThat(disabled.status()).isEqualTo(200);
            String recorded = HOSTILE + "\uFFFD\u202E";
            assertThat(node.fixture.queue().auditTrail(1)).extracting(AuditEntry::actor)
                    .as("a control character cannot forge a line; the rest is kept as given")
                    .containsExactly(Optional.of(recorded));
            Reply audit = api.get("/v1/audit", OPERATOR);
            assertThat(audit.json().at("/entries/0/actor").asText()).isEqualTo(recorded);
            assertThat(audit.raw()).doesNotContain("<", "\u202E");

            Reply page = api.get("/audit", OPERATOR);
            assertThat(page.status()).isEqualTo(200);
            String table = page.raw().substring(page.raw().indexOf("id=\"audit\""));
            assertThat(table).doesNotContain("<script>alert", "<img src=x")
                    .contains("&lt;script&gt;alert(1)&lt;/script&gt;&quot;&gt;&lt;img src&#x3D;x");
        }
    }

    /** The job once it has finished, asked again until it says so (30 s at most). */
    private static JsonNode awaitFinished(AdminClient api, String id) {
        Instant deadline = Instant.now().plus(Duration.ofSeconds(30));
        JsonNode job = api.get("/v1/replays/" + id, OPERATOR).json();
        while (job.path("finishedAt").isNull()) {
            assertThat(Instant.now()).as("replay " + id + " finishes").isBefore(deadline);
            Thread.onSpinWait();
            job = api.get("/v1/replays/" + id, OPERATOR).json();
        }
        return job;
    }
}

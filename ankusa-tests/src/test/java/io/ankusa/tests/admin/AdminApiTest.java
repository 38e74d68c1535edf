package io.ankusa.tests.admin;

import static io.ankusa.tests.admin.AdminClient.seg;
import static io.ankusa.tests.admin.AdminNode.OPERATOR;
import static io.ankusa.tests.admin.AdminNode.VIEWER;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.ankusa.api.AuditAction;
import io.ankusa.api.DeadLetter;
import io.ankusa.api.DeadLetterQuery;
import io.ankusa.api.EndpointStatus;
import io.ankusa.api.QueueStats;
import io.ankusa.api.events.EndpointState;
import io.ankusa.tests.admin.AdminClient.Reply;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The admin API's routes over a real node on each backend, through its own-port server on
 * 127.0.0.1: every read's figures against the queue's own reads, paging, replay, endpoints,
 * purge and erase with their confirmation, and the typed errors.
 */
class AdminApiTest {

    @TempDir
    Path dir;

    private static List<String> texts(JsonNode array, String field) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.path(field).asText()));
        return out;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void everyReadShowsTheNodesFigures(String backend) {
        try (AdminNode node = AdminNode.seeded(backend, dir)) {
            AdminClient api = node.client;
            QueueStats stats = node.fixture.queue().stats();

            Reply session = api.get("/v1/session", VIEWER);
            assertThat(session.status()).isEqualTo(200);
            assertThat(session.json().path("role").asText()).isEqualTo("viewer");
            assertThat(session.json().path("principal").asText()).startsWith("token-").doesNotContain(VIEWER);
            assertThat(session.json().path("csrfToken").asText()).isNotEmpty()
                    .isNotEqualTo(api.csrf(OPERATOR)).as("per principal");

            JsonNode node1 = api.get("/v1/stats", VIEWER).json();
            assertThat(node1.at("/stats/dead").asLong()).isEqualTo(3).isEqualTo(stats.dead());
            assertThat(node1.at("/stats/quarantined").asLong()).isEqualTo(1);
            assertThat(node1.at("/stats/scheduled").asLong()).isEqualTo(1);
            assertThat(node1.at("/stats/pending").asLong()).isEqualTo(stats.pending()).isEqualTo(2);
            assertThat(node1.at("/stats/bytes").asLong()).isEqualTo(stats.bytes()).isPositive();
            assertThat(node1.at("/disk/storeBytes").asLong()).isPositive();
            assertThat(node1.at("/disk/historyMaxBytes").asLong())
                    .isEqualTo(node.fixture.queue().diskUsage().historyMaxBytes());
            assertThat(node1.at("/health/state").asText()).isEqualTo("running");
            assertThat(node1.at("/tenantsSeen").asLong()).isEqualTo(5);

            JsonNode tenants = api.get("/v1/tenants", VIEWER).json();
            assertThat(texts(tenants.path("tenants"), "tenant")).containsExactly("acme", "acme-labs", "globex",
                    "initech", "umbrella");
            assertThat(tenants.path("next").isNull()).isTrue();
            assertThat(texts(api.get("/v1/tenants?prefix=acme", VIEWER).json().path("tenants"), "tenant"))
                    .containsExactly("acme", "acme-labs");

            JsonNode acme = api.get("/v1/tenants/acme", VIEWER).json();
            assertThat(acme.path("tenant").asText()).isEqualTo("acme");
            assertThat(acme.at("/stats/dead").asLong()).isEqualTo(2);
            assertThat(acme.at("/stats/scheduled").asLong()).isEqualTo(1);
            assertThat(acme.at("/deadStats/dead").asLong()).isEqualTo(2);
            assertThat(acme.path("endpoints")).isEmpty();
            assertThat(acme.path("quarantined")).isEmpty();
            JsonNode initech = api.get("/v1/tenants/initech", VIEWER).json();
            assertThat(initech.at("/endpoints/0/state").asText()).isEqualTo("disabled");
            assertThat(initech.at("/endpoints/0/reason").asText()).isEqualTo("operator");
            assertThat(initech.at("/stats/pending").asLong()).isEqualTo(1);
            JsonNode globex = api.get("/v1/tenants/globex", VIEWER).json();
            assertThat(globex.at("/quarantined/0/seq").asLong()).isEqualTo(node.globexQuarantined.seq());
            assertThat(globex.at("/quarantined/0/reason").asText()).isEqualTo("hook_undecodable");
            assertThat(api.get("/v1/tenants/nobody", VIEWER).error()).isEqualTo("not_found");

            JsonNode dead = api.get("/v1/tenants/acme/dead", VIEWER).json();
            assertThat(texts(dead.path("letters"), "hookId")).as("newest first").containsExactly("dead-a2", "dead-a1");
            assertThat(dead.at("/letters/0/lastError").asText()).isEqualTo("HTTP 410 from the receiver");
            assertThat(dead.at("/letters/0/seq").asLong()).isEqualTo(node.acmeDead2.seq());
            JsonNode firstDead = api.get("/v1/tenants/acme/dead?limit=1", VIEWER).json();
            assertThat(texts(firstDead.path("letters"), "hookId")).containsExactly("dead-a2");
            JsonNode secondDead = api.get("/v1/tenants/acme/dead?limit=1&after=" + firstDead.path("next").asText(),
                    VIEWER).json();
            assertThat(texts(secondDead.path("letters"), "hookId")).containsExactly("dead-a1");

            JsonNode retry = api.get("/v1/tenants/acme/hooks/" + node.acmeRetry.seq(), VIEWER).json();
            assertThat(retry.path("hookId").asText()).isEqualTo("retry-a3");
            assertThat(retry.path("source").asText()).isEqualTo("src");
            assertThat(retry.at("/deliveries/0/state").asText()).isEqualTo("due");
            assertThat(retry.at("/deliveries/0/attempts").asInt()).isEqualTo(1);
            assertThat(retry.at("/deliveries/0/lastError").asText()).isEqualTo("HTTP 503 from the receiver");
            assertThat(retry.has("payload")).as("not asked for").isFalse();
            assertThat(retry.path("payloadBytes").asInt()).isPositive();
            JsonNode quarantined = api.get("/v1/tenants/globex/hooks/" + node.globexQuarantined.seq(), VIEWER).json();
            assertThat(quarantined.path("decodable").asBoolean()).isFalse();
            assertThat(quarantined.at("/deliveries/0/state").asText()).isEqualTo("quarantined");
            assertThat(api.get("/v1/tenants/umbrella/hooks/" + node.acmeRetry.seq(), VIEWER).error())
                    .as("another tenant's hook").isEqualTo("not_found");

            JsonNode attempts = api.get("/v1/tenants/acme/hooks/" + node.acmeRetry.seq() + "/attempts", VIEWER).json();
            assertThat(attempts.path("attempts")).hasSize(1);
            assertThat(attempts.at("/attempts/0/outcome").asText()).isEqualTo("retry");
            assertThat(attempts.at("/attempts/0/reason").asText()).isEqualTo("HTTP 503 from the receiver");

            JsonNode endpoints = api.get("/v1/endpoints", VIEWER).json();
            assertThat(texts(endpoints.path("endpoints"), "tenant")).contains("initech").containsExactlyElementsOf(
                    node.fixture.queue().endpoints(100).stream().map(EndpointStatus::tenant).toList());
            assertThat(endpoints.at("/endpoints/0/state").asText()).isEqualTo("disabled");
            JsonNode quarantine = api.get("/v1/quarantine", VIEWER).json();
            assertThat(texts(quarantine.path("quarantined"), "tenant")).containsExactly("globex");

            JsonNode audit = api.get("/v1/audit", VIEWER).json();
            assertThat(texts(audit.path("entries"), "action")).containsExactly(AuditAction.ENDPOINT_DISABLE.code());
            assertThat(audit.at("/entries/0/tenant").asText()).isEqualTo("initech");

            Reply openapi = api.get("/v1/openapi.json", VIEWER);
            assertThat(openapi.json().path("openapi").asText()).isEqualTo("3.1.0");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void tenantsPageTwoAtATimeThroughTheCursor(String backend) {
        try (AdminNode node = AdminNode.seeded(backend, dir)) {
            List<String> seen = new ArrayList<>();
            List<Integer> pages = new ArrayList<>();
            String path = "/v1/tenants?limit=2";
            while (true) {
                Reply page = node.client.get(path, VIEWER);
                assertThat(page.status()).isEqualTo(200);
                List<String> ids = texts(page.json().path("tenants"), "tenant");
                seen.addAll(ids);
                pages.add(ids.size());
                JsonNode next = page.json().path("next");
                if (next.isNull()) {
                    break;
                }
                path = "/v1/tenants?limit=2&after=" + next.asText();
            }
            assertThat(seen).containsExactly("acme", "acme-labs", "globex", "initech", "umbrella");
            assertThat(pages).containsExactly(2, 2, 1);
            assertThat(node.client.get("/v1/tenants?limit=0", VIEWER).error()).isEqualTo("bad_request");
            assertThat(node.client.get("/v1/tenants?limit=1001", VIEWER).error()).isEqualTo("bad_request");
            assertThat(node.client.get("/v1/tenants?limit=two", VIEWER).error()).isEqualTo("bad_request");
            assertThat(node.client.get("/v1/tenants?after=%25%25", VIEWER).error()).isEqualTo("bad_request");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aReplayedDeadLetterLeavesTheDeadList(String backend) {
        try (AdminNode node = AdminNode.seeded(backend, dir)) {
            String csrf = node.client.csrf(OPERATOR);
            String replay = "/v1/tenants/acme/hooks/" + node.acmeDead1.seq() + "/replay";

            Reply replayed = node.client.post(replay, OPERATOR, csrf, "{\"sink\": 0}");

            assertThat(replayed.status()).isEqualTo(200);
            assertThat(replayed.json().path("actor").asText()).isEqualTo(
                    node.client.get("/v1/session", OPERATOR).json().path("principal").asText());
            assertThat(replayed.json().at("/result/replay").asText()).isEqualTo("replayed");
            assertThat(texts(node.client.get("/v1/tenants/acme/dead", VIEWER).json().path("letters"), "hookId"))
                    .containsExactly("dead-a2");
            assertThat(node.fixture.queue().deadLetters(DeadLetterQuery.tenants("acme")).letters())
                    .extracting(DeadLetter::hookId).containsExactly("dead-a2");
            assertThat(node.client.post(replay, OPERATOR, csrf, "{\"sink\": 0}").status()).as("not dead now")
                    .isEqualTo(409);
            assertThat(node.client.post(replay, OPERATOR, csrf, "{\"sink\": 0}").error()).isEqualTo("not_dead");
            assertThat(node.client.post(replay, OPERATOR, csrf, "{\"sink\": 7}").status()).isEqualTo(404);
            assertThat(node.client.post(replay, OPERATOR, csrf, "{}").error()).isEqualTo("bad_request");
            assertThat(node.client.get("/v1/audit", VIEWER).json().at("/entries/0/action").asText())
                    .isEqualTo(AuditAction.REPLAY.code());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aTenantsAttemptsAndQuarantineAreListed(String backend) {
        try (AdminNode node = AdminNode.seeded(backend, dir)) {
            AdminClient api = node.client;

            JsonNode attempts = api.get("/v1/tenants/acme/attempts", VIEWER).json();
            assertThat(texts(attempts.path("attempts"), "hookId")).containsExactlyInAnyOrder("dead-a1", "dead-a2",
                    "retry-a3", "ok-a4").containsExactlyElementsOf(node.fixture.queue()
                            .attempts(io.ankusa.api.AttemptQuery.tenant("acme")).attempts().stream()
                            .map(io.ankusa.api.DeliveryAttempt::hookId).toList());
            assertThat(attempts.at("/attempts/0/latencyMicros").isIntegralNumber()).isTrue();
            assertThat(attempts.path("next").isNull()).isTrue();
            JsonNode first = api.get("/v1/tenants/acme/attempts?limit=1", VIEWER).json();
            assertThat(first.path("attempts")).hasSize(1);
            JsonNode second = api.get("/v1/tenants/acme/attempts?limit=1&after=" + first.path("next").asText(),
                    VIEWER).json();
            assertThat(texts(second.path("attempts"), "hookId"))
                    .containsExactly(texts(attempts.path("attempts"), "hookId").get(1));
            JsonNode oneHook = api.get("/v1/tenants/acme/attempts?hook=retry-a3", VIEWER).json();
            assertThat(texts(oneHook.path("attempts"), "outcome")).containsExactly("retry");
            assertThat(api.get("/v1/tenants/nobody/attempts", VIEWER).error()).isEqualTo("not_found");
            assertThat(api.get("/v1/tenants/acme/attempts?after=nope", VIEWER).error()).isEqualTo("bad_request");

            JsonNode quarantine = api.get("/v1/tenants/globex/quarantine", VIEWER).json();
            assertThat(quarantine.at("/quarantined/0/seq").asLong()).isEqualTo(node.globexQuarantined.seq());
            assertThat(quarantine.path("quarantined")).hasSize(1);
            assertThat(api.get("/v1/tenants/acme/quarantine", VIEWER).json().path("quarantined")).isEmpty();
            assertThat(api.get("/v1/tenants/nobody/quarantine", VIEWER).error()).isEqualTo("not_found");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aTenantsOrAHooksDeadLettersAreReplayed(String backend) {
        try (AdminNode node = AdminNode.seeded(backend, dir)) {
            AdminClient api = node.client;
            String csrf = api.csrf(OPERATOR);

            assertThat(api.post("/v1/tenants/acme/replay", VIEWER, api.csrf(VIEWER), "").status()).as("a viewer")
                    .isEqualTo(403);
            Reply hook = api.post("/v1/tenants/acme/replay", OPERATOR, csrf, "{\"hook\": \"dead-a1\"}");
            assertThat(hook.status()).isEqualTo(200);
            assertThat(hook.json().at("/result/revived").asLong()).isEqualTo(1);
            assertThat(hook.json().at("/result/hook").asText()).isEqualTo("dead-a1");
            assertThat(node.fixture.queue().deadLetters(DeadLetterQuery.tenants("acme")).letters())
                    .extracting(DeadLetter::hookId).containsExactly("dead-a2");

            Reply tenant = api.post("/v1/tenants/acme/replay", OPERATOR, csrf, "");
            assertThat(tenant.json().at("/result/revived").asLong()).isEqualTo(1);
            assertThat(tenant.json().at("/result/hook").isNull()).isTrue();
            assertThat(node.fixture.queue().deadForTenant("acme").dead()).isZero();
            assertThat(api.post("/v1/tenants/nobody/replay", OPERATOR, csrf, "").error()).isEqualTo("not_found");
            assertThat(api.get("/v1/audit", VIEWER).json().at("/entries/0/action").asText())
                    .isEqualTo(AuditAction.REPLAY.code());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aPageOfTheNodesDeadLettersIsReplayedByCursor(String backend) {
        try (AdminNode node = AdminNode.seeded(backend, dir)) {
            AdminClient api = node.client;
            String csrf = api.csrf(OPERATOR);

            Reply first = api.post("/v1/replay/page", OPERATOR, csrf, "{\"limit\": 2}");
            assertThat(first.status()).isEqualTo(200);
            assertThat(first.json().path("revived").asLong()).isEqualTo(2);
            assertThat(first.json().path("skipped").asLong()).isZero();
            assertThat(node.fixture.queue().stats().dead()).isEqualTo(1);
            Reply last = api.post("/v1/replay/page", OPERATOR, csrf, "{\"limit\": 2, \"after\": \""
                    + first.json().path("next").asText() + "\"}");
            assertThat(last.json().path("revived").asLong()).isEqualTo(1);
            assertThat(last.json().path("next").isNull()).isTrue();
            assertThat(node.fixture.queue().stats().dead()).isZero();
            assertThat(api.post("/v1/replay/page", OPERATOR, csrf, "{\"limit\": 10001}").error())
                    .isEqualTo("bad_request");
            assertThat(api.post("/v1/replay/page", OPERATOR, csrf, "{\"after\": \"nope\"}").error())
                    .isEqualTo("bad_request");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aScopedCallerDoesNotReplayAPageHoldingOtherTenants(String backend) {
        try (AdminNode node = AdminNode.seeded(backend, dir, AdminNode.tokens().withTenantScope("acme"::equals))) {
            AdminClient api = node.client;

            Reply refused = api.post("/v1/replay/page", OPERATOR, api.csrf(OPERATOR), "");

            assertThat(refused.status()).isEqualTo(403);
            assertThat(refused.error()).isEqualTo("forbidden");
            assertThat(node.fixture.queue().stats().dead()).as("nothing revived").isEqualTo(3);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void anEndpointIsDisabledAndEnabledAgain(String backend) {
        try (AdminNode node = AdminNode.seeded(backend, dir)) {
            String csrf = node.client.csrf(OPERATOR);

            Reply disabled = node.client.post("/v1/tenants/acme/endpoints/0/disable", OPERATOR, csrf, "");
            assertThat(disabled.status()).isEqualTo(200);
            assertThat(disabled.json().at("/result/state").asText()).isEqualTo("disabled");
            assertThat(node.fixture.queue().endpoints("acme", 10)).singleElement()
                    .satisfies(e -> assertThat(e.state()).isEqualTo(EndpointState.DISABLED));
            assertThat(texts(node.client.get("/v1/endpoints", VIEWER).json().path("endpoints"), "tenant"))
                    .contains("initech", "acme").containsExactlyElementsOf(
                            node.fixture.queue().endpoints(100).stream().map(EndpointStatus::tenant).toList());

            Reply enabled = node.client.post("/v1/tenants/initech/endpoints/0/enable", OPERATOR, csrf, "");
            assertThat(enabled.status()).isEqualTo(200);
            assertThat(enabled.json().at("/result/state").asText()).isEqualTo("active");
            assertThat(node.fixture.queue().endpoints("initech", 10)).isEmpty();
            assertThat(node.client.post("/v1/tenants/initech/endpoints/65536/enable", OPERATOR, csrf, "").error())
                    .isEqualTo("bad_request");
            assertThat(node.client.post("/v1/tenants/nobody/endpoints/0/disable", OPERATOR, csrf, "").error())
                    .isEqualTo("not_found");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void purgeAndEraseNeedTheTenantConfirmed(String backend) {
        try (AdminNode node = AdminNode.seeded(backend, dir)) {
            String csrf = node.client.csrf(OPERATOR);

            Reply unconfirmed = node.client.post("/v1/tenants/acme/purge", OPERATOR, csrf, "{}");
            assertThat(unconfirmed.status()).isEqualTo(400);
            assertThat(unconfirmed.error()).isEqualTo("confirmation_required");
            assertThat(node.client.post("/v1/tenants/acme/purge", OPERATOR, csrf, "{\"confirm\": \"globex\"}").error())
                    .as("another tenant named").isEqualTo("confirmation_required");
            assertThat(node.client.post("/v1/tenants/acme/erase", OPERATOR, csrf, "").error())
                    .isEqualTo("confirmation_required");
            assertThat(node.fixture.queue().deadForTenant("acme").dead()).as("nothing removed").isEqualTo(2);

            Reply purged = node.client.post("/v1/tenants/acme/purge", OPERATOR, csrf,
                    "{\"confirm\": \"acme\", \"kinds\": [\"dead\"]}");
            assertThat(purged.status()).isEqualTo(200);
            assertThat(purged.json().at("/result/dead").asLong()).isEqualTo(2);
            assertThat(node.fixture.queue().deadForTenant("acme").dead()).isZero();
            assertThat(node.fixture.queue().pendingForTenant("acme").scheduled()).as("due rows kept").isEqualTo(1);

            Reply erased = node.client.post("/v1/tenants/umbrella/erase", OPERATOR, csrf, "{\"confirm\": \"umbrella\"}");
            assertThat(erased.status()).isEqualTo(200);
            assertThat(erased.json().at("/result/erased").asBoolean()).isTrue();
            assertThat(node.client.get("/v1/tenants/umbrella", VIEWER).error()).isEqualTo("not_found");
            assertThat(texts(node.client.get("/v1/audit", VIEWER).json().path("entries"), "action"))
                    .startsWith(AuditAction.ERASE.code(), AuditAction.PURGE.code());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void theQuarantineIsReleasedAndPurged(String backend) {
        try (AdminNode node = AdminNode.seeded(backend, dir)) {
            String csrf = node.client.csrf(OPERATOR);

            Reply released = node.client.post("/v1/tenants/globex/quarantine/release", OPERATOR, csrf, "");
            assertThat(released.status()).isEqualTo(200);
            assertThat(released.json().at("/result/rows").asLong()).isEqualTo(1);
            assertThat(node.fixture.queue().stats().quarantined()).isZero();

            io.ankusa.tests.dispatch.DispatchFixture.await(node.pipeline.tick());
            assertThat(node.fixture.queue().stats().quarantined()).as("still undecodable: quarantined again")
                    .isEqualTo(1);
            Reply purged = node.client.post("/v1/tenants/globex/quarantine/purge", OPERATOR, csrf, "");
            assertThat(purged.json().at("/result/rows").asLong()).isEqualTo(1);
            assertThat(node.client.get("/v1/quarantine", VIEWER).json().path("quarantined")).isEmpty();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void everyErrorIsTypedJsonWithTheSecurityHeaders(String backend) {
        try (AdminNode node = AdminNode.seeded(backend, dir)) {
            AdminClient api = node.client;
            List<Reply> errors = List.of(api.get("/v1/nothing-here", VIEWER), api.get("/v1", VIEWER),
                    api.get("/v1/tenants/acme/hooks/abc", VIEWER), api.get("/v1/tenants/acme/hooks/0", VIEWER),
                    api.get("/v1/tenants/%FF", VIEWER), api.get("/v1/tenants/acme/dead?after=nope", VIEWER),
                    api.post("/v1/stats", OPERATOR, api.csrf(OPERATOR), ""),
                    api.post("/v1/tenants/acme/purge", OPERATOR, api.csrf(OPERATOR), "{not json"));
            assertThat(errors).extracting(Reply::status).containsExactly(404, 404, 400, 400, 400, 400, 405, 400);
            assertThat(errors).extracting(Reply::error).containsExactly("not_found", "not_found", "bad_request",
                    "bad_request", "bad_request", "bad_request", "method_not_allowed", "bad_request");
            for (Reply error : errors) {
                AdminSecurityTest.assertSecured(error);
                assertThat(error.json().path("message").isTextual()).isTrue();
                assertThat(error.raw()).doesNotContain("at io.ankusa", "<html", "Exception");
            }
            assertThat(Optional.ofNullable(errors.get(0).header("Server"))).as("no server banner").isEmpty();
        }
    }
}

package io.ankusa.tests.admin;

import static io.ankusa.tests.admin.AdminNode.OPERATOR;
import static io.ankusa.tests.admin.AdminNode.VIEWER;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.ankusa.tests.admin.AdminClient.Reply;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The dead-letter filter, the replay of a selection and bulk replays as background jobs, over a
 * real node on each backend through the own-port server on 127.0.0.1 (the seed holds acme's two
 * dead letters and umbrella's one).
 */
class ReplayApiTest {

    @TempDir
    Path dir;

    private static List<String> hookIds(Reply reply) {
        List<String> ids = new ArrayList<>();
        reply.json().path("letters").forEach(l -> ids.add(l.path("hookId").asText()));
        return ids;
    }

    /** Polls {@code GET /v1/replays/{id}} until the job has finished, within a bounded deadline. */
    private static JsonNode finished(AdminClient api, String id) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (true) {
            JsonNode job = api.get("/v1/replays/" + id, VIEWER).json();
            String state = job.path("state").asText();
            if (state.equals("done") || state.equals("cancelled") || state.equals("failed")) {
                return job;
            }
            assertThat(System.nanoTime()).as("replay " + id + " finishes").isLessThan(deadline);
            Thread.onSpinWait();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void deadLettersAreListedByFilterWithCursorPaging(String backend) {
        try (AdminNode node = AdminNode.seeded(backend, dir)) {
            AdminClient api = node.client;

            assertThat(hookIds(api.get("/v1/dead", VIEWER))).containsExactlyInAnyOrder("dead-a1", "dead-a2", "dead-u1");
            assertThat(hookIds(api.get("/v1/dead?tenant=acme", VIEWER))).containsExactlyInAnyOrder("dead-a1", "dead-a2");
            assertThat(hookIds(api.get("/v1/dead?source=src&reason=HTTP%20410", VIEWER))).hasSize(3);
            assertThat(hookIds(api.get("/v1/dead?reason=HTTP%20404", VIEWER))).isEmpty();
            assertThat(hookIds(api.get("/v1/dead?to=2000-01-01T00:00:00Z", VIEWER))).isEmpty();
            assertThat(hookIds(api.get("/v1/dead?from=2000-01-01T00:00:00Z", VIEWER))).hasSize(3);

            Reply first = api.get("/v1/dead?limit=2", VIEWER);
            assertThat(hookIds(first)).hasSize(2);
            assertThat(first.json().path("examined").asInt()).isEqualTo(2);
            String next = first.json().path("next").asText();
            Reply second = api.get("/v1/dead?limit=2&after=" + next, VIEWER);
            assertThat(hookIds(second)).hasSize(1).doesNotContainAnyElementsOf(hookIds(first));
            assertThat(second.json().path("next").isNull()).isTrue();

            Reply badTime = api.get("/v1/dead?from=yesterday", VIEWER);
            assertThat(badTime.status()).isEqualTo(400);
            assertThat(badTime.error()).isEqualTo("bad_request");
            assertThat(api.get("/v1/dead?from=2030-01-01T00:00:00Z&to=2020-01-01T00:00:00Z", VIEWER).status())
                    .isEqualTo(400);
            assertThat(api.get("/v1/dead?after=nonsense", VIEWER).error()).isEqualTo("bad_request");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aBulkReplayRunsInTheBackgroundWithProgressAndAResult(String backend) {
        try (AdminNode node = AdminNode.seeded(backend, dir)) {
            AdminClient api = node.client;

            Reply started = api.post("/v1/replays", OPERATOR, api.csrf(OPERATOR), "{\"tenant\": \"acme\"}");
            assertThat(started.status()).isEqualTo(202);
            String id = started.json().path("id").asText();
            assertThat(started.json().path("filter").path("tenant").asText()).isEqualTo("acme");
            assertThat(started.json().path("state").asText()).isIn("pending", "running", "done");

            JsonNode job = finished(api, id);
            assertThat(job.path("state").asText()).isEqualTo("done");
            assertThat(job.path("examined").asLong()).isEqualTo(2);
            assertThat(job.path("replayed").asLong()).isEqualTo(2);
            assertThat(job.path("skipped").asLong()).isZero();
            assertThat(job.path("failed").asLong()).isZero();
            assertThat(job.path("startedAt").isTextual()).isTrue();
            assertThat(job.path("finishedAt").isTextual()).isTrue();
            assertThat(job.path("actor").asText()).startsWith("token-");
            assertThat(node.fixture.queue().deadForTenant("acme").dead()).isZero();
            assertThat(node.fixture.queue().deadForTenant("umbrella").dead()).as("another tenant untouched").isOne();

            JsonNode recent = api.get("/v1/replays", VIEWER).json().path("jobs");
            assertThat(recent.size()).isOne();
            assertThat(recent.get(0).path("id").asText()).isEqualTo(id);

            Reply late = api.post("/v1/replays/" + id + "/cancel", OPERATOR, api.csrf(OPERATOR), "");
            assertThat(late.status()).isEqualTo(409);
            assertThat(late.error()).isEqualTo("replay_finished");
            assertThat(api.get("/v1/replays/r999", VIEWER).error()).isEqualTo("not_found");
            assertThat(api.post("/v1/replays/r999/cancel", OPERATOR, api.csrf(OPERATOR), "").status()).isEqualTo(404);

            Reply all = api.post("/v1/replays", OPERATOR, api.csrf(OPERATOR), "{}");
            assertThat(finished(api, all.json().path("id").asText()).path("replayed").asLong()).isOne();
            assertThat(node.fixture.queue().stats().dead()).isZero();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aBulkReplayIsRefusedWithATypedErrorForABadFilterAViewerOrNoCsrfToken(String backend) {
        try (AdminNode node = AdminNode.seeded(backend, dir)) {
            AdminClient api = node.client;

            Reply badFilter = api.post("/v1/replays", OPERATOR, api.csrf(OPERATOR), "{\"from\": \"soon\"}");
            assertThat(badFilter.status()).isEqualTo(400);
            assertThat(badFilter.error()).isEqualTo("bad_request");
            assertThat(api.post("/v1/replays", OPERATOR, api.csrf(OPERATOR), "{\"tenant\": 7}").status())
                    .isEqualTo(400);
            Reply viewer = api.post("/v1/replays", VIEWER, api.csrf(VIEWER), "{}");
            assertThat(viewer.status()).isEqualTo(403);
            assertThat(viewer.error()).isEqualTo("forbidden");
            Reply noCsrf = api.post("/v1/replays", OPERATOR, "", "{}");
            assertThat(noCsrf.status()).isEqualTo(403);
            assertThat(noCsrf.error()).isEqualTo("csrf");
            Reply cancelNoCsrf = api.post("/v1/replays/r1/cancel", OPERATOR, "", "");
            assertThat(cancelNoCsrf.error()).isEqualTo("csrf");

            assertThat(api.get("/v1/replays", VIEWER).json().path("jobs").size()).as("nothing started").isZero();
            assertThat(node.fixture.queue().stats().dead()).isEqualTo(3);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aSelectionIsReplayedWithAResultPerDelivery(String backend) {
        try (AdminNode node = AdminNode.seeded(backend, dir)) {
            AdminClient api = node.client;
            String body = "{\"deliveries\": ["
                    + "{\"tenant\": \"acme\", \"seq\": " + node.acmeDead1.seq() + ", \"sink\": 0},"
                    + "{\"tenant\": \"acme\", \"seq\": " + node.acmeRetry.seq() + ", \"sink\": 0},"
                    + "{\"tenant\": \"nobody\", \"seq\": 1, \"sink\": 0}]}";

            Reply reply = api.post("/v1/replay", OPERATOR, api.csrf(OPERATOR), body);

            assertThat(reply.status()).isEqualTo(200);
            assertThat(reply.json().path("replayed").asInt()).isOne();
            List<String> results = new ArrayList<>();
            reply.json().path("results").forEach(r -> results.add(r.path("result").asText()));
            assertThat(results).containsExactly("replayed", "not_dead", "not_found");
            assertThat(node.fixture.queue().deadForTenant("acme").dead()).isOne();

            StringBuilder tooMany = new StringBuilder("{\"deliveries\": [");
            for (int i = 0; i <= 1_000; i++) {
                tooMany.append(i == 0 ? "" : ",").append("{\"tenant\": \"acme\", \"seq\": 1, \"sink\": 0}");
            }
            assertThat(api.post("/v1/replay", OPERATOR, api.csrf(OPERATOR), tooMany + "]}").error())
                    .isEqualTo("bad_request");
            assertThat(api.post("/v1/replay", OPERATOR, api.csrf(OPERATOR), "{\"deliveries\": []}").status())
                    .isEqualTo(400);
            assertThat(api.post("/v1/replay", VIEWER, api.csrf(VIEWER), body).status()).isEqualTo(403);
        }
    }
}

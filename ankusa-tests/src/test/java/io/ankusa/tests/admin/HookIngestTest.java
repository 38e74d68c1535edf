package io.ankusa.tests.admin;

import static io.ankusa.tests.admin.AdminSecurityTest.assertSecured;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ankusa.admin.AccessPolicy;
import io.ankusa.admin.AdminServer;
import io.ankusa.admin.HookIngestServlet;
import io.ankusa.admin.IngestTokens;
import io.ankusa.admin.Role;
import io.ankusa.api.EndpointSpec;
import io.ankusa.api.Hook;
import io.ankusa.api.Receipt;
import io.ankusa.api.StoredHook;
import io.ankusa.api.TenantPolicies;
import io.ankusa.api.TenantPolicy;
import io.ankusa.tests.admin.AdminClient.Reply;
import io.ankusa.tests.queue.QueueUnderTest;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The HTTP ingest edge ({@code POST /v1/hooks}) on an admin server on 127.0.0.1, port 0, over a
 * real queue on each backend: a new hook, its repeats and a conflicting hook under its id; every
 * refusal with its status, body and {@code Retry-After}; the producer tokens and their scopes.
 */
class HookIngestTest {

    static final String ANY = "ingest-any-tenant-0123456789";
    static final String ACME_ONLY = "ingest-acme-only-0123456789";
    static final int PAYLOAD_MAX = 1024;

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String PATH = "/v1/hooks";

    @TempDir
    Path dir;

    private QueueUnderTest q;
    private AdminServer server;
    private AdminClient client;

    /** A queue of at most 3 tenants, a 1 KiB payload limit, room for 1 hook waiting, tenant "slow" at 1 row. */
    private void open(String backend) {
        q = QueueUnderTest.open(backend, dir, b -> b.tenantsMax(3).payloadMaxBytes(PAYLOAD_MAX).ingestQueueCapacity(1)
                .tenantPolicies(TenantPolicies.of(TenantPolicy.DEFAULT,
                        Map.of("slow", TenantPolicy.DEFAULT.withMaxPendingRows(1)))));
        IngestTokens tokens = IngestTokens.builder().anyTenant(ANY).tenants(ACME_ONLY, Set.of("acme")).build();
        server = AdminServer.builder(q.queue()).accessPolicy(AdminNode.tokens())
                .hookIngest(HookIngestServlet.builder(q.queue()).tokens(tokens).payloadMaxBytes(PAYLOAD_MAX).build())
                .port(0).build().start();
        client = new AdminClient(server.port());
    }

    @AfterEach
    void close() {
        if (server != null) {
            server.close();
        }
        if (q != null) {
            q.close();
        }
    }

    static ObjectNode hook(String tenant, String id) {
        ObjectNode body = JSON.createObjectNode();
        body.put("tenant", tenant);
        body.put("id", id);
        body.put("source", "billing");
        body.putObject("headers").put("x-order", "o-1");
        body.put("payload", "{\"total\":12}");
        body.putArray("sinks").add(0).add(3);
        return body;
    }

    private Reply post(String token, ObjectNode body) {
        return post(token, body, Map.of());
    }

    private Reply post(String token, ObjectNode body, Map<String, String> headers) {
        return client.post(PATH, token, null, body.toString(), headers);
    }

    private static void assertRefused(Reply reply, int status, String error) {
        assertThat(reply.status()).as(reply.raw()).isEqualTo(status);
        assertThat(reply.error()).as(reply.raw()).isEqualTo(error);
        assertSecured(reply);
    }

    @ParameterizedTest(name = "[{0}]")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aNewHookIsAnswered201AfterItsCommitAndIsInTheStore(String backend) {
        open(backend);
        Reply reply = post(ANY, hook("acme", "msg_1"));

        assertThat(reply.status()).as(reply.raw()).isEqualTo(201);
        assertSecured(reply);
        assertThat(reply.json().path("tenant").asText()).isEqualTo("acme");
        assertThat(reply.json().path("id").asText()).isEqualTo("msg_1");
        assertThat(reply.json().path("duplicate").asBoolean(true)).isFalse();
        assertThat(sinks(reply)).containsExactly(0, 3);
        long seq = reply.json().path("seq").asLong();
        Hook stored = q.queue().hook("acme", seq).flatMap(StoredHook::hook).orElseThrow();
        assertThat(stored.id()).isEqualTo("msg_1");
        assertThat(stored.sourceId()).isEqualTo("billing");
        assertThat(stored.headers()).containsExactly(Map.entry("x-order", "o-1"));
        assertThat(new String(stored.payload(), StandardCharsets.UTF_8)).isEqualTo("{\"total\":12}");
        assertThat(stored.sinks()).containsExactly(0, 3);
        assertThat(q.queue().pendingForTenant("acme").pending()).isEqualTo(2);
    }

    @ParameterizedTest(name = "[{0}]")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aBase64PayloadIsStoredAsItsBytesAndAHookWithoutATenantIsFiledUnderDefault(String backend) {
        open(backend);
        byte[] bytes = {0, (byte) 0xFF, 0x7F, (byte) 0x80};
        ObjectNode body = hook("x", "msg_bin");
        body.remove("tenant");
        body.remove("payload");
        body.put("payloadBase64", Base64.getEncoder().encodeToString(bytes));
        Reply reply = post(ANY, body);

        assertThat(reply.status()).as(reply.raw()).isEqualTo(201);
        assertThat(reply.json().path("tenant").asText()).isEqualTo(Hook.DEFAULT_TENANT);
        Hook stored = q.queue().hook(Hook.DEFAULT_TENANT, reply.json().path("seq").asLong())
                .flatMap(StoredHook::hook).orElseThrow();
        assertThat(stored.payload()).containsExactly(bytes);

        body.put("payload", "text");
        assertRefused(post(ANY, body), 400, "bad_request");
        body.remove("payload");
        body.put("payloadBase64", "not base64!");
        Reply invalid = post(ANY, body);
        assertRefused(invalid, 400, "invalid_hook");
        assertThat(invalid.json().path("reason").asText()).isEqualTo("payload_invalid");
    }

    @ParameterizedTest(name = "[{0}]")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aRepeatOfTheSameHookIs200WithTheFirstReceiptAndWritesNothing(String backend) {
        open(backend);
        Reply first = post(ANY, hook("acme", "msg_1"));
        Reply again = post(ANY, hook("acme", "msg_1"));

        assertThat(first.status()).isEqualTo(201);
        assertThat(again.status()).as(again.raw()).isEqualTo(200);
        assertThat(again.json().path("duplicate").asBoolean()).isTrue();
        assertThat(again.json().path("seq").asLong()).isEqualTo(first.json().path("seq").asLong());
        assertThat(q.queue().pendingForTenant("acme").pending()).as("one hook, two sinks").isEqualTo(2);
    }

    @ParameterizedTest(name = "[{0}]")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void anotherHookUnderAStoredIdIs409(String backend) {
        open(backend);
        Reply first = post(ANY, hook("acme", "msg_1"));
        ObjectNode other = hook("acme", "msg_1");
        other.put("payload", "{\"total\":13}");
        Reply conflict = post(ANY, other);

        assertRefused(conflict, 409, "hook_conflict");
        assertThat(conflict.json().path("seq").asLong()).isEqualTo(first.json().path("seq").asLong());
        Hook stored = q.queue().hook("acme", first.json().path("seq").asLong()).flatMap(StoredHook::hook)
                .orElseThrow();
        assertThat(new String(stored.payload(), StandardCharsets.UTF_8)).isEqualTo("{\"total\":12}");
        assertThat(q.queue().pendingForTenant("acme").pending()).isEqualTo(2);
    }

    @ParameterizedTest(name = "[{0}]")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void theIdempotencyKeyHeaderIsTheIdWhenTheBodyGivesNone(String backend) {
        open(backend);
        ObjectNode body = hook("acme", "unused");
        body.remove("id");
        Reply created = post(ANY, body, Map.of("Idempotency-Key", "key_7"));
        Reply again = post(ANY, body, Map.of("Idempotency-Key", "key_7"));

        assertThat(created.status()).as(created.raw()).isEqualTo(201);
        assertThat(created.json().path("id").asText()).isEqualTo("key_7");
        assertThat(again.status()).isEqualTo(200);
        assertThat(again.json().path("seq").asLong()).isEqualTo(created.json().path("seq").asLong());

        assertRefused(post(ANY, hook("acme", "msg_2"), Map.of("Idempotency-Key", "key_8")), 400, "bad_request");
        Reply noId = post(ANY, body);
        assertRefused(noId, 400, "invalid_hook");
        assertThat(noId.json().path("reason").asText()).isEqualTo("missing_id");
    }

    @ParameterizedTest(name = "[{0}]")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void invalidInputIs400WithTheLibrarysReasonCode(String backend) {
        open(backend);
        ObjectNode longTenant = hook("t".repeat(Hook.TENANT_MAX_BYTES + 1), "msg_1");
        ObjectNode noSinks = hook("acme", "msg_2");
        noSinks.remove("sinks");
        ObjectNode badHeader = hook("acme", "msg_3");
        badHeader.putObject("headers").put("x-bad", "a\r\nb");
        ObjectNode badId = hook("acme", "msg.4");
        Map<ObjectNode, String> reasons = Map.of(longTenant, "tenant_too_long", noSinks, "no_sinks",
                badHeader, "header_value_invalid", badId, "invalid_id");
        reasons.forEach((body, reason) -> {
            Reply reply = post(ANY, body);
            assertRefused(reply, 400, "invalid_hook");
            assertThat(reply.json().path("reason").asText()).as(reply.raw()).isEqualTo(reason);
        });

        ObjectNode unknown = hook("acme", "msg_6");
        unknown.put("sink", 1);
        assertRefused(post(ANY, unknown), 400, "bad_request");
        ObjectNode wrongType = hook("acme", "msg_7");
        wrongType.put("source", 7);
        assertRefused(post(ANY, wrongType), 400, "bad_request");
        assertRefused(client.post(PATH, ANY, null, "{not json"), 400, "bad_request");
        assertRefused(client.post(PATH, ANY, null, "[1]"), 400, "bad_request");
        assertThat(q.queue().stats().pending()).as("nothing was written").isZero();
    }

    @ParameterizedTest(name = "[{0}]")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aHookWithAnEventTypeFansOutToTheTenantsSubscribedEndpoints(String backend) {
        open(backend);
        int billing = register("acme", "billing", "invoice.*");
        register("acme", "shipping", "shipment.*");
        int ledger = register("acme", "ledger", "invoice.paid");
        Reply reply = post(ANY, typed("acme", "msg_1", "invoice.paid"));

        assertThat(reply.status()).as(reply.raw()).isEqualTo(201);
        assertThat(sinks(reply)).containsExactly(billing, ledger);
        Hook stored = q.queue().hook("acme", reply.json().path("seq").asLong()).flatMap(StoredHook::hook)
                .orElseThrow();
        assertThat(stored.eventType()).contains("invoice.paid");
        assertThat(stored.sinks()).containsExactly(billing, ledger);
        assertThat(q.queue().pendingForTenant("acme").pending()).as("a row per subscriber").isEqualTo(2);

        Reply again = post(ANY, typed("acme", "msg_1", "invoice.paid"));
        assertThat(again.status()).as(again.raw()).isEqualTo(200);
        assertThat(again.json().path("seq").asLong()).isEqualTo(reply.json().path("seq").asLong());
        assertThat(sinks(again)).as("the stored hook's sinks").containsExactly(billing, ledger);
        assertRefused(post(ANY, typed("acme", "msg_1", "invoice.voided")), 409, "hook_conflict");
        assertThat(q.queue().pendingForTenant("acme").pending()).isEqualTo(2);
    }

    @ParameterizedTest(name = "[{0}]")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aHookWithAnEventTypeNoEndpointSubscribesToIs201WithNoSinks(String backend) {
        open(backend);
        register("acme", "shipping", "shipment.*");
        Reply reply = post(ANY, typed("acme", "msg_1", "invoice.paid"));
        Reply noEndpoints = post(ANY, typed("globex", "msg_1", "invoice.paid"));

        assertThat(reply.status()).as(reply.raw()).isEqualTo(201);
        assertThat(reply.json().path("duplicate").asBoolean(true)).isFalse();
        assertThat(reply.json().path("sinks").isArray()).as(reply.raw()).isTrue();
        assertThat(sinks(reply)).isEmpty();
        assertThat(noEndpoints.status()).as(noEndpoints.raw()).isEqualTo(201);
        assertThat(sinks(noEndpoints)).isEmpty();
        assertThat(q.queue().stats().pending()).as("no delivery written").isZero();

        Reply again = post(ANY, typed("acme", "msg_1", "invoice.paid"));
        assertThat(again.status()).as(again.raw()).isEqualTo(200);
        assertThat(again.json().path("seq").asLong()).isEqualTo(reply.json().path("seq").asLong());
        assertThat(again.json().has("sinks")).as("a repeat of a hook not stored does not know").isFalse();
    }

    @ParameterizedTest(name = "[{0}]")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void anEventTypeWithSinksOrNotADottedNameIs400(String backend) {
        open(backend);
        register("acme", "billing", "invoice.*");
        ObjectNode both = typed("acme", "msg_1", "invoice.paid");
        both.putArray("sinks").add(0);
        Reply withSinks = post(ANY, both);
        assertRefused(withSinks, 400, "invalid_hook");
        assertThat(withSinks.json().path("reason").asText()).as(withSinks.raw()).isEqualTo("event_type_with_sinks");

        for (String type : new String[] {"invoice.*", "invoice..paid", "invoice paid", ""}) {
            Reply invalid = post(ANY, typed("acme", "msg_2", type));
            assertRefused(invalid, 400, "invalid_hook");
            assertThat(invalid.json().path("reason").asText()).as(type).isEqualTo("event_type_invalid");
        }
        ObjectNode notText = typed("acme", "msg_3", "invoice.paid");
        notText.put("eventType", 7);
        assertRefused(post(ANY, notText), 400, "bad_request");
        assertThat(q.queue().stats().pending()).as("nothing was written").isZero();
    }

    /** A hook of {@code tenant} addressed by {@code eventType} instead of sinks. */
    private static ObjectNode typed(String tenant, String id, String eventType) {
        ObjectNode body = hook(tenant, id);
        body.remove("sinks");
        body.put("eventType", eventType);
        return body;
    }

    /** Registers an endpoint subscribed to {@code filter}; its sink number. */
    private int register(String tenant, String id, String filter) {
        return q.queue().endpointRegistry().add(tenant, EndpointSpec.of(URI.create("https://" + id + ".example/hooks"))
                .withId(id).withEventTypes(List.of(filter))).sink();
    }

    /** The answer's {@code sinks}. */
    private static List<Integer> sinks(Reply reply) {
        List<Integer> sinks = new ArrayList<>();
        reply.json().path("sinks").forEach(sink -> sinks.add(sink.intValue()));
        return sinks;
    }

    @ParameterizedTest(name = "[{0}]")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aPayloadPastTheLimitIs413(String backend) {
        open(backend);
        ObjectNode atLimit = hook("acme", "msg_1");
        atLimit.put("payload", "p".repeat(PAYLOAD_MAX));
        assertThat(post(ANY, atLimit).status()).isEqualTo(201);

        ObjectNode over = hook("acme", "msg_2");
        over.put("payload", "p".repeat(PAYLOAD_MAX + 1));
        Reply reply = post(ANY, over);
        assertRefused(reply, 413, "invalid_hook");
        assertThat(reply.json().path("reason").asText()).isEqualTo("payload_too_large");

        // A body no hook within the limit can need: refused whole, whether it says its length or not.
        ObjectNode huge = hook("acme", "msg_3");
        huge.put("payload", "p".repeat(400 * 1024));
        assertRefused(post(ANY, huge), 413, "too_large");
        assertRefused(send(huge.toString(), "application/json", true), 413, "too_large");
        assertThat(q.queue().pendingForTenant("acme").pending()).as("only the hook at the limit").isEqualTo(2);
    }

    @ParameterizedTest(name = "[{0}]")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aContentLengthPastTheLimitIsRefusedBeforeTheBodyIsSent(String backend) throws IOException {
        open(backend);
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", server.port()), 10_000);
            socket.setSoTimeout(60_000);
            OutputStream out = socket.getOutputStream();
            // Headers only: a server that read the body first would wait for a gigabyte that never comes.
            out.write(("POST " + PATH + " HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + ANY
                    + "\r\nContent-Type: application/json\r\nContent-Length: 1000000000\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            String head = new String(in.readNBytes(12), StandardCharsets.US_ASCII);
            assertThat(head).isEqualTo("HTTP/1.1 413");
        }
    }

    @ParameterizedTest(name = "[{0}]")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void ingestAdmissionRefusingTheTenantIs429WithRetryAfter(String backend) {
        open(backend);
        assertThat(post(ANY, singleSink("slow", "msg_1")).status()).isEqualTo(201);
        Reply reply = post(ANY, singleSink("slow", "msg_2"));

        assertRefused(reply, 429, "tenant_overloaded");
        assertThat(reply.json().path("reason").asText()).isEqualTo("pending_rows");
        assertThat(Long.parseLong(reply.header("Retry-After"))).isPositive();
        assertThat(post(ANY, singleSink("acme", "msg_3")).status()).as("other tenants are unaffected").isEqualTo(201);
    }

    @ParameterizedTest(name = "[{0}]")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aTenantPastTenantsMaxIs503TenantLimitWithRetryAfter300(String backend) {
        open(backend);
        for (String tenant : new String[] {"t1", "t2", "t3"}) {
            assertThat(post(ANY, hook(tenant, "msg_1")).status()).isEqualTo(201);
        }
        Reply reply = post(ANY, hook("t4", "msg_1"));

        assertThat(reply.status()).as(reply.raw()).isEqualTo(503);
        assertThat(reply.raw()).isEqualTo("{\"error\":\"tenant_limit\"}");
        assertThat(reply.header("Retry-After")).isEqualTo("300");
        assertThat(post(ANY, hook("t1", "msg_2")).status()).as("an existing tenant is not refused").isEqualTo(201);
    }

    @ParameterizedTest(name = "[{0}]")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void anOverloadedWriterIs503WithRetryAfter(String backend) throws Exception {
        open(backend);
        CountDownLatch release = parkWriter();
        CompletableFuture<Receipt> waiting = q.queue().ingest(QueueUnderTest.hook("fills-the-queue", "acme", 0));
        Reply reply = post(ANY, hook("acme", "msg_1"));
        release.countDown();

        assertRefused(reply, 503, "ingest_overloaded");
        assertThat(reply.header("Retry-After")).isEqualTo("1");
        waiting.get(60, TimeUnit.SECONDS);
        assertThat(post(ANY, hook("acme", "msg_1")).status()).as("once the writer has room").isEqualTo(201);
    }

    @ParameterizedTest(name = "[{0}]")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aRequestWithoutAnIngestTokenIs401(String backend) {
        open(backend);
        Reply none = post(null, hook("acme", "msg_1"));
        assertRefused(none, 401, "unauthenticated");
        assertThat(none.header("WWW-Authenticate")).isEqualTo("Bearer");
        assertRefused(post("ingest-wrong-0123456789", hook("acme", "msg_1")), 401, "unauthenticated");
        assertRefused(post(AdminNode.OPERATOR, hook("acme", "msg_1")), 401, "unauthenticated");
        assertRefused(post(null, hook("acme", "msg_1"), Map.of("Cookie", "token=" + ANY)), 401, "unauthenticated");
        assertRefused(post(null, hook("acme", "msg_1"), Map.of("Authorization", "Basic " + ANY)), 401,
                "unauthenticated");
        assertThat(q.queue().stats().pending()).isZero();
    }

    @ParameterizedTest(name = "[{0}]")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aScopedTokenPostsOnlyItsTenants(String backend) {
        open(backend);
        assertThat(post(ACME_ONLY, hook("acme", "msg_1")).status()).isEqualTo(201);
        assertRefused(post(ACME_ONLY, hook("globex", "msg_1")), 403, "forbidden");
        ObjectNode noTenant = hook("x", "msg_2");
        noTenant.remove("tenant");
        assertRefused(post(ACME_ONLY, noTenant), 403, "forbidden");
        assertThat(q.queue().pendingForTenant("globex").pending()).isZero();
        assertThat(q.queue().tenantCount()).as("a refused tenant gets no ordinal").isEqualTo(1);
    }

    @ParameterizedTest(name = "[{0}]")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void onlyAJsonPostIsServed(String backend) {
        open(backend);
        Reply get = client.get(PATH, ANY);
        assertRefused(get, 405, "method_not_allowed");
        assertThat(get.header("Allow")).isEqualTo("POST");
        assertRefused(send(hook("acme", "msg_1").toString(), "text/plain", false), 415, "unsupported_media_type");
        assertThat(q.queue().stats().pending()).isZero();
    }

    @ParameterizedTest(name = "[{0}]")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void theEdgeIsOffUnlessGiven(String backend) {
        q = QueueUnderTest.open(backend, dir);
        server = AdminServer.builder(q.queue()).accessPolicy(AccessPolicy.tokens(Map.of(ANY, Role.OPERATOR)))
                .port(0).build().start();
        client = new AdminClient(server.port());
        Reply reply = post(ANY, hook("acme", "msg_1"));
        assertThat(reply.status()).as(reply.raw()).isNotIn(200, 201);
        assertThat(q.queue().stats().pending()).isZero();
    }

    private static ObjectNode singleSink(String tenant, String id) {
        ObjectNode body = hook(tenant, id);
        body.putArray("sinks").add(0);
        return body;
    }

    /** Posts {@code body} as {@code contentType}, without a Content-Length (chunked) when {@code chunked}. */
    private Reply send(String body, String contentType, boolean chunked) {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + PATH))
                .timeout(Duration.ofSeconds(60)).header("Authorization", "Bearer " + ANY)
                .header("Content-Type", contentType)
                .POST(chunked ? HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(bytes))
                        : HttpRequest.BodyPublishers.ofByteArray(bytes)).build();
        try {
            HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
            return new Reply(response.statusCode(), response.headers().map(), response.body(),
                    JSON.readTree(response.body()));
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Parks the writer in a chore until the returned latch is counted down. */
    private CountDownLatch parkWriter() throws InterruptedException {
        CountDownLatch parked = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        q.engine().writer().submitChore(() -> {
            parked.countDown();
            try {
                return release.await(5, TimeUnit.MINUTES);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        });
        assertThat(parked.await(60, TimeUnit.SECONDS)).isTrue();
        return release;
    }
}

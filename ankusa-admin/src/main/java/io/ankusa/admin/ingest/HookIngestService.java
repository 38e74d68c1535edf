package io.ankusa.admin.ingest;

import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ankusa.admin.http.JsonResponses;
import io.ankusa.admin.json.Nodes;
import io.ankusa.api.AnkusaException;
import io.ankusa.api.Hook;
import io.ankusa.api.InvalidHookException;
import io.ankusa.api.Receipt;
import io.ankusa.api.StoredHook;
import io.ankusa.queue.Queue;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves {@code POST /v1/hooks}: the bearer token (401) and its tenant scope (403), a bounded read
 * of the body (413, 415), the hook it describes (400 with the library's reason), the queue's synced
 * receipt and its refusals ({@link LibraryRefusals}), then what the receipt stands for
 * ({@link ReceiptVerdict}: 201 a new hook, 200 a repeat, 409 another hook under the same id), with
 * the sinks the hook was written for.
 * Every answer is JSON with the admin API's security headers; a failure the edge did not expect is
 * a 500 {@code internal} whose cause goes to the log, never to the client.
 */
public final class HookIngestService {

    private static final Logger LOG = LoggerFactory.getLogger(HookIngestService.class);

    private static final String BEARER = "bearer ";

    private final Queue queue;
    private final Function<String, Optional<Predicate<String>>> tokens;
    private final int payloadMaxBytes;
    private final long bodyLimit;
    private final Duration receiptTimeout;

    /**
     * An edge over {@code queue}.
     *
     * @param queue           the queue hooks go to
     * @param tokens          the tenants a bearer token may post for, empty for a token it does not know
     * @param payloadMaxBytes the largest payload
     * @param receiptTimeout  how long a request waits for the synced commit
     */
    public HookIngestService(Queue queue, Function<String, Optional<Predicate<String>>> tokens, int payloadMaxBytes,
            Duration receiptTimeout) {
        this.queue = Objects.requireNonNull(queue, "queue");
        this.tokens = Objects.requireNonNull(tokens, "tokens");
        this.payloadMaxBytes = payloadMaxBytes;
        this.bodyLimit = BoundedBody.limit(payloadMaxBytes);
        this.receiptTimeout = Objects.requireNonNull(receiptTimeout, "receiptTimeout");
    }

    /**
     * Serves {@code request}.
     *
     * @param request  the request
     * @param response the response
     * @throws IOException when the client went away
     */
    public void serve(HttpServletRequest request, HttpServletResponse response) throws IOException {
        IngestRefusal refusal;
        try {
            Answer answer = answer(request);
            JsonResponses.write(response, answer.status(), answer.body());
            return;
        } catch (IngestRefusal e) {
            refusal = e;
        } catch (AnkusaException e) {
            refusal = LibraryRefusals.of(e).orElseGet(() -> internal(request, e));
        } catch (RuntimeException e) {
            refusal = internal(request, e);
        }
        refusal.headers().forEach(response::setHeader);
        JsonResponses.write(response, refusal.status(), refusal.body());
    }

    /** A success: 201 or 200 and the receipt. */
    private record Answer(int status, ObjectNode body) {
    }

    private Answer answer(HttpServletRequest request) throws IOException {
        if (!"POST".equals(request.getMethod())) {
            throw IngestRefusal.of(405, "method_not_allowed", "hooks are posted").header("Allow", "POST");
        }
        Predicate<String> scope = authenticate(request);
        HookRequest parsed = HookRequest.parse(BoundedBody.read(request, bodyLimit));
        String id = id(parsed, request.getHeader("Idempotency-Key"));
        Hook hook = parsed.builder().id(id).idempotencyKey(id).traceContext(RequestTrace.of(request)).build();
        if (!scope.test(hook.tenant())) {
            throw IngestRefusal.of(403, "forbidden", "this token may not post hooks of that tenant");
        }
        if (hook.payloadLength() > payloadMaxBytes) {
            throw new InvalidHookException(InvalidHookException.Reason.PAYLOAD_TOO_LARGE,
                    "payload is " + hook.payloadLength() + " bytes; at most " + payloadMaxBytes);
        }
        Receipt receipt = await(hook);
        ReceiptVerdict verdict = ReceiptVerdict.of(queue, hook, receipt);
        ObjectNode body = Nodes.object();
        if (verdict == ReceiptVerdict.CONFLICT) {
            body.put("error", "hook_conflict");
            body.put("message", "tenant '" + receipt.tenantId() + "' already holds another hook with this id");
            body.put("seq", receipt.seq());
            throw new IngestRefusal(409, body);
        }
        body.put("tenant", receipt.tenantId());
        body.put("id", receipt.hookId());
        body.put("seq", receipt.seq());
        body.put("duplicate", verdict == ReceiptVerdict.REPEAT);
        sinks(receipt).ifPresent(sinks -> body.set("sinks", Nodes.array(sinks, IntNode::valueOf)));
        return new Answer(verdict == ReceiptVerdict.NEW ? 201 : 200, body);
    }

    /**
     * The sinks the hook was written for: the commit's receipt names them (none for an event type no
     * endpoint subscribes to); a repeat's receipt does not, so they are the stored hook's while it is
     * stored, else not known.
     */
    private Optional<List<Integer>> sinks(Receipt receipt) {
        return receipt.sinks().or(() -> queue.hook(receipt.tenantId(), receipt.seq()).flatMap(StoredHook::hook)
                .map(Hook::sinks));
    }

    private Predicate<String> authenticate(HttpServletRequest request) {
        String header = request.getHeader("Authorization");
        Optional<Predicate<String>> scope = Optional.empty();
        if (header != null && header.length() > BEARER.length()
                && header.substring(0, BEARER.length()).toLowerCase(Locale.ROOT).equals(BEARER)) {
            scope = tokens.apply(header.substring(BEARER.length()).trim());
        }
        return scope.orElseThrow(() -> IngestRefusal.of(401, "unauthenticated",
                "send an ingest token as Authorization: Bearer <token>").header("WWW-Authenticate", "Bearer"));
    }

    /** The body's id, else the {@code Idempotency-Key} header's; both must agree when both are given. */
    private static String id(HookRequest parsed, String idempotencyKey) {
        Optional<String> id = parsed.id();
        if (id.isPresent() && idempotencyKey != null && !id.get().equals(idempotencyKey)) {
            throw IngestRefusal.badRequest("the body's id and the Idempotency-Key header differ");
        }
        return id.orElse(idempotencyKey == null ? "" : idempotencyKey);
    }

    private Receipt await(Hook hook) {
        try {
            return queue.ingest(hook).get(receiptTimeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof AnkusaException refused) {
                throw refused;
            }
            throw new IllegalStateException("ingest failed", e.getCause());
        } catch (TimeoutException e) {
            throw IngestRefusal.of(503, "receipt_timeout", "no receipt within " + receiptTimeout.toMillis()
                    + " ms; post the hook again with the same id").retryAfterSeconds(1);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw IngestRefusal.of(503, "receipt_timeout", "the request was interrupted waiting for its receipt")
                    .retryAfterSeconds(1);
        }
    }

    private static IngestRefusal internal(HttpServletRequest request, RuntimeException e) {
        LOG.warn("hook ingest {} request failed", request.getMethod(), e);
        return IngestRefusal.of(500, "internal", "the request failed; the node's log has the cause");
    }
}

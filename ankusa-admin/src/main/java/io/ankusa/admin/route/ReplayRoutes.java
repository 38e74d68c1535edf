package io.ankusa.admin.route;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ankusa.admin.json.Nodes;
import io.ankusa.admin.json.QueueJson;
import io.ankusa.api.DeadLetterCursor;
import io.ankusa.api.DeadLetterQuery;
import io.ankusa.dispatch.DeadLetterFilter;
import io.ankusa.dispatch.DeliveryReplay;
import io.ankusa.dispatch.FilteredDeadLetters;
import io.ankusa.dispatch.ReplayPage;
import io.ankusa.dispatch.ReplayProgress;
import io.ankusa.dispatch.ReplayResult;
import io.ankusa.dispatch.Replayer;
import io.ankusa.queue.Queue;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * The node's dead letters by filter, the replay of a tenant's (or one hook id's) dead letters, of
 * one page of the node's, of a selection of dead deliveries, and bulk replays by filter as
 * background jobs. A filtered page reads at most
 * {@value DeadLetterFilter#MAX_EXAMINED} letters ({@link DeadLetterFilter}); a job replays in
 * chunks of {@value io.ankusa.dispatch.ReplayJob#CHUNK} ({@link io.ankusa.dispatch.ReplayJob}).
 */
final class ReplayRoutes {

    /** The most deliveries one selection replays. */
    static final int MAX_SELECTION = 1_000;

    /** The page a {@code POST /v1/replay/page} without a limit revives, as {@code ankusa replay --all} does. */
    static final int DEFAULT_PAGE = 500;

    private final Queue queue;
    private final Replayer replayer;
    private final ReplayJobs jobs;

    ReplayRoutes(Queue queue, Replayer replayer, ReplayJobs jobs) {
        this.queue = queue;
        this.replayer = replayer;
        this.jobs = jobs;
    }

    ApiResponse dead(ApiRequest request) {
        DeadLetterFilter filter = filter(request, request::param);
        FilteredDeadLetters page;
        Optional<String> after = request.param("after");
        if (after.isPresent()) {
            DeadLetterCursor cursor;
            try {
                cursor = DeadLetterCursor.parse(after.get());
            } catch (IllegalArgumentException e) {
                throw ApiException.badRequest(e.getMessage());
            }
            page = filter.page(queue, cursor, request.limit());
        } else {
            page = filter.page(queue, request.limit());
        }
        ObjectNode body = Nodes.object();
        body.set("filter", filterJson(filter));
        body.set("letters", Nodes.array(page.letters(), QueueJson::deadLetter));
        body.put("examined", page.examined());
        Nodes.putCursor(body, "next", page.next().map(DeadLetterCursor::token));
        return ApiResponse.ok(body);
    }

    ApiResponse startJob(ApiRequest request) {
        JsonNode body = request.body();
        DeadLetterFilter filter = filter(request, name -> text(body, name));
        ReplayJobs.Entry entry = jobs.start(filter, Mutations.actor(request));
        Mutations.logged(request, "replay-job", filter.tenant().orElse("*"));
        return new ApiResponse(202, job(entry));
    }

    ApiResponse listJobs(ApiRequest request) {
        ArrayNode list = Nodes.array(jobs.recent().stream().filter(e -> visible(request, e)).toList(),
                ReplayRoutes::job);
        ObjectNode body = Nodes.object();
        body.set("jobs", list);
        return ApiResponse.ok(body);
    }

    ApiResponse getJob(ApiRequest request) {
        return ApiResponse.ok(job(found(request)));
    }

    ApiResponse cancelJob(ApiRequest request) {
        ReplayJobs.Entry entry = found(request);
        if (entry.job().progress().state().finished()) {
            throw new ApiException(409, "replay_finished", "replay " + entry.id() + " has already finished");
        }
        entry.job().cancel();
        Mutations.logged(request, "replay-job-cancel", entry.job().filter().tenant().orElse("*"));
        return ApiResponse.ok(job(entry));
    }

    ApiResponse replaySelection(ApiRequest request) {
        JsonNode items = request.body().get("deliveries");
        if (items == null || !items.isArray() || items.isEmpty()) {
            throw ApiException.badRequest("name the deliveries: {\"deliveries\": [{\"tenant\", \"seq\", \"sink\"}]}");
        }
        if (items.size() > MAX_SELECTION) {
            throw ApiException.badRequest("at most " + MAX_SELECTION + " deliveries a request: " + items.size());
        }
        ArrayNode results = Nodes.object().arrayNode();
        int replayed = 0;
        for (JsonNode item : items) {
            String tenant = text(item, "tenant")
                    .orElseThrow(() -> ApiException.badRequest("each delivery names its tenant"));
            long seq = number(item, "seq", 1, Long.MAX_VALUE);
            int sink = (int) number(item, "sink", 0, 0xFFFF);
            String outcome;
            if (!request.caller().sees(tenant)) {
                outcome = "not_found";
            } else {
                DeliveryReplay result = replayer.actingAs(Mutations.actor(request)).replayDelivery(tenant, seq, sink);
                outcome = switch (result) {
                    case REPLAYED -> "replayed";
                    case NOT_DEAD -> "not_dead";
                    case NOT_FOUND -> "not_found";
                };
                if (result == DeliveryReplay.REPLAYED) {
                    replayed++;
                    Mutations.logged(request, "replay", tenant);
                }
            }
            ObjectNode row = results.addObject();
            row.put("tenant", tenant);
            row.put("seq", seq);
            row.put("sink", sink);
            row.put("result", outcome);
        }
        ObjectNode body = Nodes.object();
        body.put("action", "replay-selection");
        body.put("actor", request.caller().principal());
        body.put("replayed", replayed);
        body.set("results", results);
        return ApiResponse.ok(body);
    }

    /**
     * {@code POST /v1/tenants/{tenant}/replay}: revives the tenant's dead letters, or one hook id's with
     * {@code {"hook": id}} ({@link Replayer#replayTenant}, {@link Replayer#replayHook}); audited by the replayer.
     */
    ApiResponse replayTenant(ApiRequest request) {
        String tenant = request.tenant();
        TenantRoutes.requireKnown(queue, tenant);
        Optional<String> hook = text(request.body(), "hook");
        ReplayResult result = hook.isPresent() ? replayer.replayHook(tenant, hook.get())
                : replayer.replayTenant(tenant);
        ObjectNode done = Nodes.object();
        Nodes.putCursor(done, "hook", hook);
        done.put("revived", result.revived());
        done.put("skippedNewer", result.skippedNewer());
        done.put("skippedGone", result.skippedGone());
        return Mutations.done(request, "replay", tenant, done);
    }

    /**
     * {@code POST /v1/replay/page}: revives one page of the node's dead letters, newest first
     * ({@link Replayer#replayPage}), {@code {"limit": n, "after": cursor}}. The page is listed first: a
     * caller who does not see every tenant on it is refused ({@code 403 forbidden}) and nothing is revived.
     */
    ApiResponse replayPage(ApiRequest request) {
        JsonNode limitNode = request.body().get("limit");
        int limit = limitNode == null || limitNode.isNull() ? DEFAULT_PAGE
                : (int) number(request.body(), "limit", 1, DeadLetterQuery.MAX_LIMIT);
        Optional<DeadLetterCursor> after;
        try {
            after = text(request.body(), "after").map(DeadLetterCursor::parse);
        } catch (IllegalArgumentException e) {
            throw ApiException.badRequest(e.getMessage());
        }
        DeadLetterQuery query = DeadLetterQuery.all().limit(limit);
        boolean outOfScope = queue.deadLetters(after.isPresent() ? query.after(after.get()) : query).letters()
                .stream().anyMatch(letter -> !request.caller().sees(letter.tenantId()));
        if (outOfScope) {
            throw new ApiException(403, ApiException.FORBIDDEN,
                    "the page holds dead letters of tenants out of your scope: replay by tenant instead");
        }
        ReplayPage page = after.isPresent() ? replayer.replayPage(after.get(), limit) : replayer.replayPage(limit);
        ObjectNode body = Nodes.object();
        body.put("action", "replay-page");
        body.put("actor", request.caller().principal());
        body.put("revived", page.revived());
        body.put("skipped", page.skipped());
        Nodes.putCursor(body, "next", page.next().map(DeadLetterCursor::token));
        Mutations.logged(request, "replay-page", "*");
        return ApiResponse.ok(body);
    }

    private ReplayJobs.Entry found(ApiRequest request) {
        String id = request.pathValue("id");
        return jobs.find(id).filter(e -> visible(request, e))
                .orElseThrow(() -> ApiException.notFound("no replay '" + id + "'"));
    }

    /** A job naming a tenant is shown to callers who see that tenant; a job across tenants to every caller. */
    private static boolean visible(ApiRequest request, ReplayJobs.Entry entry) {
        return entry.job().filter().tenant().map(request.caller()::sees).orElse(true);
    }

    /** The filter named by {@code field} (query parameters or body fields), in the caller's scope. */
    private static DeadLetterFilter filter(ApiRequest request, Function<String, Optional<String>> field) {
        DeadLetterFilter filter = DeadLetterFilter.all().scope(request.caller()::sees);
        Optional<String> tenant = field.apply("tenant");
        if (tenant.isPresent()) {
            if (!request.caller().sees(tenant.get())) {
                throw ApiException.notFound("no tenant '" + tenant.get() + "'");
            }
            filter = filter.tenant(tenant.get());
        }
        Optional<String> source = field.apply("source");
        if (source.isPresent()) {
            filter = filter.source(source.get());
        }
        Optional<String> reason = field.apply("reason").filter(r -> !r.isEmpty());
        if (reason.isPresent()) {
            filter = filter.reason(reason.get());
        }
        Optional<Instant> from = field.apply("from").map(v -> instant("from", v));
        Optional<Instant> to = field.apply("to").map(v -> instant("to", v));
        if (from.isPresent() && to.isPresent() && !from.get().isBefore(to.get())) {
            throw ApiException.badRequest("from must be before to");
        }
        if (from.isPresent()) {
            filter = filter.from(from.get());
        }
        if (to.isPresent()) {
            filter = filter.to(to.get());
        }
        return filter;
    }

    private static Instant instant(String name, String value) {
        try {
            return Instant.parse(value);
        } catch (DateTimeParseException e) {
            throw ApiException.badRequest(name + " is an ISO-8601 instant such as 2026-01-01T00:00:00Z: '" + value
                    + "'");
        }
    }

    private static Optional<String> text(JsonNode body, String name) {
        JsonNode node = body.get(name);
        if (node == null || node.isNull()) {
            return Optional.empty();
        }
        if (!node.isTextual()) {
            throw ApiException.badRequest(name + " is a string");
        }
        return Optional.of(node.textValue());
    }

    private static long number(JsonNode item, String name, long min, long max) {
        JsonNode node = item.get(name);
        if (node == null || !node.isIntegralNumber() || !node.canConvertToLong() || node.longValue() < min
                || node.longValue() > max) {
            throw ApiException.badRequest(name + " is a number in " + min + ".." + max);
        }
        return node.longValue();
    }

    private static ObjectNode filterJson(DeadLetterFilter filter) {
        ObjectNode node = Nodes.object();
        for (Map.Entry<String, Optional<String>> field : Map.of(
                "tenant", filter.tenant(), "source", filter.source(), "reason", filter.reason(),
                "from", filter.from().map(Instant::toString), "to", filter.to().map(Instant::toString)).entrySet()) {
            if (field.getValue().isPresent()) {
                node.put(field.getKey(), field.getValue().get());
            } else {
                node.putNull(field.getKey());
            }
        }
        return node;
    }

    private static ObjectNode job(ReplayJobs.Entry entry) {
        // The end time is read before the progress: a job whose end is shown has its final counts.
        Optional<Instant> finishedAt = entry.finishedAt();
        ReplayProgress progress = entry.job().progress();
        ObjectNode node = Nodes.object();
        node.put("id", entry.id());
        node.put("state", progress.state().name().toLowerCase(Locale.ROOT));
        node.set("filter", filterJson(entry.job().filter()));
        node.put("actor", entry.actor());
        node.put("examined", progress.examined());
        node.put("replayed", progress.replayed());
        node.put("skipped", progress.skipped());
        node.put("failed", progress.failed());
        node.put("createdAt", entry.createdAt().toString());
        putInstant(node, "startedAt", entry.startedAt());
        putInstant(node, "finishedAt", finishedAt);
        Nodes.putCursor(node, "resumeFrom", progress.resumeFrom().map(DeadLetterCursor::token));
        if (progress.error().isPresent()) {
            node.put("error", progress.error().get());
        } else {
            node.putNull("error");
        }
        return node;
    }

    private static void putInstant(ObjectNode node, String name, Optional<Instant> at) {
        if (at.isPresent()) {
            node.put(name, at.get().toString());
        } else {
            node.putNull(name);
        }
    }
}

package io.ankusa.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import io.ankusa.api.AttemptErrorClass;
import io.ankusa.api.DeadLetter;
import io.ankusa.api.DeliveryAttempt;
import io.ankusa.api.DeliveryState;
import io.ankusa.api.ErasureResult;
import io.ankusa.api.Hook;
import io.ankusa.api.PurgeResult;
import io.ankusa.api.QuarantineResult;
import io.ankusa.api.QuarantinedDelivery;
import io.ankusa.api.StoredDelivery;
import io.ankusa.api.StoredHook;
import io.ankusa.api.TenantStats;
import io.ankusa.api.TenantSummary;
import io.ankusa.api.TraceContext;
import io.ankusa.api.events.AttemptOutcome;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The admin API's JSON (docs/admin.md) turned back into the library's types, so that a command renders
 * what {@link ApiNode} returns exactly as it renders what a store returns. A value the API spells
 * otherwise than the library is refused as {@link ExitCode#UNREACHABLE}: what answered is not the
 * admin API this CLI knows.
 */
final class ApiJson {

    private ApiJson() {
    }

    static TenantSummary tenant(JsonNode row) {
        return new TenantSummary(row.path("tenant").asText(), tenantStats(row.path("stats")));
    }

    static TenantStats tenantStats(JsonNode s) {
        return new TenantStats(s.path("pending").asLong(), s.path("scheduled").asLong(), s.path("inflight").asLong(),
                s.path("dead").asLong(), s.path("bytes").asLong(), s.path("quarantined").asLong());
    }

    static DeadLetter deadLetter(JsonNode row) {
        return new DeadLetter(row.path("tenant").asText(), row.path("source").asText(), row.path("hookId").asText(),
                row.path("seq").asLong(), row.path("sink").asInt(), Instant.parse(row.path("deadAt").asText()),
                row.path("attempts").asInt(), row.path("lastError").asText());
    }

    static DeliveryAttempt attempt(JsonNode row) {
        JsonNode status = row.path("status");
        AttemptErrorClass errorClass = AttemptErrorClass.ofCode(row.path("errorClass").asText())
                .orElseThrow(() -> unknown("error class", row.path("errorClass").asText()));
        return new DeliveryAttempt(row.path("tenant").asText(), row.path("hookId").asText(), row.path("seq").asLong(),
                row.path("sink").asInt(), row.path("attempt").asInt(), Instant.parse(row.path("at").asText()),
                constant(AttemptOutcome.class, row.path("outcome").asText()),
                status.isInt() ? OptionalInt.of(status.intValue()) : OptionalInt.empty(),
                Duration.ofNanos(row.path("latencyMicros").asLong() * 1_000), errorClass, row.path("reason").asText(),
                row.path("outOfOrder").asBoolean());
    }

    static QuarantinedDelivery quarantined(JsonNode row) {
        return new QuarantinedDelivery(row.path("tenant").asText(), row.path("seq").asLong(), row.path("sink").asInt(),
                row.path("bytes").asLong(), constant(QuarantinedDelivery.Reason.class, row.path("reason").asText()),
                Instant.parse(row.path("quarantinedAt").asText()));
    }

    static QuarantineResult quarantineResult(JsonNode result) {
        return new QuarantineResult(result.path("tenant").asText(), result.path("rows").asLong(),
                result.path("bytes").asLong());
    }

    static PurgeResult purge(JsonNode result) {
        return new PurgeResult(result.path("tenant").asText(), result.path("pending").asLong(),
                result.path("scheduled").asLong(), result.path("dead").asLong(), result.path("bytes").asLong());
    }

    static ErasureResult erasure(JsonNode r) {
        return new ErasureResult(r.path("tenant").asText(), r.path("erased").asBoolean(), r.path("pending").asLong(),
                r.path("scheduled").asLong(), r.path("inflight").asLong(), r.path("dead").asLong(),
                r.path("bytes").asLong(), r.path("hooks").asLong(), r.path("dedupeKeys").asLong(),
                r.path("quarantined").asLong());
    }

    /**
     * A stored hook. Without {@code payload} the API sends only the payload's length: the hook then holds
     * that many zero bytes in place of the payload, so its {@link Hook#payloadLength()} is right, and the
     * commands never print a payload they were not asked for.
     */
    static StoredHook hook(JsonNode body, boolean payload) {
        Optional<Hook> hook = Optional.empty();
        if (body.path("decodable").asBoolean()) {
            Hook.Builder builder = Hook.builder().id(body.path("hookId").asText())
                    .sourceId(body.path("source").asText())
                    .tenantId(body.path("tenant").asText()).headers(headers(body.path("headers")))
                    .payload(payload ? Base64.getDecoder().decode(body.path("payload").asText())
                            : new byte[body.path("payloadBytes").asInt()])
                    .sinks(sinks(body.path("sinks")));
            text(body, "idempotencyKey").ifPresent(builder::idempotencyKey);
            text(body, "orderingKey").ifPresent(builder::orderingKey);
            Optional<String> traceparent = text(body, "traceparent");
            if (traceparent.isPresent()) {
                builder.traceContext(new TraceContext(traceparent.get(), text(body, "tracestate").orElse("")));
            }
            hook = Optional.of(builder.build());
        }
        List<StoredDelivery> deliveries = new ArrayList<>();
        for (JsonNode d : body.path("deliveries")) {
            deliveries.add(new StoredDelivery(d.path("sink").asInt(), constant(DeliveryState.class,
                    d.path("state").asText()), d.path("attempts").asInt(),
                    text(d, "lastAttemptAt").map(Instant::parse), d.path("lastError").asText()));
        }
        return new StoredHook(body.path("tenant").asText(), body.path("seq").asLong(), hook,
                text(body, "receivedAt").map(Instant::parse), deliveries);
    }

    private static Map<String, String> headers(JsonNode headers) {
        Map<String, String> out = new LinkedHashMap<>();
        headers.properties().forEach(e -> out.put(e.getKey(), e.getValue().asText()));
        return out;
    }

    private static int[] sinks(JsonNode sinks) {
        int[] out = new int[sinks.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = sinks.get(i).asInt();
        }
        return out;
    }

    static Optional<String> text(JsonNode row, String name) {
        JsonNode value = row.path(name);
        return value.isTextual() ? Optional.of(value.textValue()) : Optional.empty();
    }

    private static <E extends Enum<E>> E constant(Class<E> type, String lowerCase) {
        try {
            return Enum.valueOf(type, lowerCase.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw unknown(type.getSimpleName(), lowerCase);
        }
    }

    private static CommandFailure unknown(String what, String value) {
        return new CommandFailure(ExitCode.UNREACHABLE, "the admin API named an unknown " + what + " '" + value + "'");
    }
}

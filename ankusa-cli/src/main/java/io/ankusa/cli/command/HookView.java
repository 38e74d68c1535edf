package io.ankusa.cli.command;

import io.ankusa.api.Hook;
import io.ankusa.api.StoredDelivery;
import io.ankusa.api.StoredHook;
import io.ankusa.api.TraceContext;
import io.ankusa.cli.console.Figures;
import io.ankusa.cli.console.Json;
import io.ankusa.cli.console.Table;
import io.ankusa.cli.console.TerminalText;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * A {@link StoredHook} as {@code ankusa hook} prints it: the text for a terminal or one JSON
 * object. Ids, header values, last errors and the payload are untrusted text: the tables escape
 * their cells, the payload is escaped here, the JSON escapes its strings. The payload is written
 * only when asked for.
 */
final class HookView {

    private static final String HIDDEN = " (not shown: it may hold personal data; --payload shows it)";

    private HookView() {
    }

    /** The hook as lines of text: its fields, its headers, its deliveries, and the payload if asked for. */
    static String text(StoredHook stored, boolean withPayload) {
        StringBuilder text = new StringBuilder();
        Table fields = Table.keyValue().row("tenant", stored.tenantId()).row("seq", Long.toString(stored.seq()));
        Optional<Hook> decoded = stored.hook();
        if (decoded.isEmpty()) {
            fields.row("hook", "its stored bytes do not decode (see 'ankusa quarantine list')");
            text.append(fields.render());
        } else {
            Hook hook = decoded.get();
            fields.row("hook", hook.id())
                    .row("source", hook.sourceId())
                    .row("received", stored.receivedAt().map(Instant::toString).orElse("-"))
                    .row("idempotency key", hook.idempotencyKey().orElse("-"))
                    .row("ordering key", hook.orderingKey().orElse("-"))
                    .row("traceparent", hook.traceContext().map(TraceContext::traceparent).orElse("-"))
                    .row("payload", Figures.bytes(hook.payloadLength()) + (withPayload ? " (below)" : HIDDEN));
            text.append(fields.render());
            text.append(headers(hook.headers()));
        }
        text.append(deliveries(stored));
        if (withPayload && decoded.isPresent()) {
            text.append(payload(decoded.get().payload()));
        }
        return text.toString();
    }

    private static String headers(Map<String, String> headers) {
        if (headers.isEmpty()) {
            return "no headers\n";
        }
        Table table = Table.columns("header", "value").leftAligned(1).title("Headers:");
        headers.forEach(table::row);
        return table.render();
    }

    private static String deliveries(StoredHook stored) {
        if (stored.deliveries().isEmpty()) {
            return "no deliveries\n";
        }
        Table table = Table.columns("sink", "state", "attempts", "last attempt", "last error").leftAligned(1, 3, 4)
                .title("Deliveries:");
        for (StoredDelivery d : stored.deliveries()) {
            table.row(Integer.toString(d.sink()), state(d), Integer.toString(d.attempts()),
                    d.lastAttemptAt().map(Instant::toString).orElse("-"), d.lastError());
        }
        return table.render();
    }

    /** The payload: escaped text when it is UTF-8, else base64, after a line that says which. */
    private static String payload(byte[] payload) {
        Optional<String> utf8 = utf8(payload);
        if (utf8.isPresent()) {
            return "Payload (UTF-8, escaped):\n" + TerminalText.escape(utf8.get()) + "\n";
        }
        return "Payload (not UTF-8, so base64):\n" + Base64.getEncoder().encodeToString(payload) + "\n";
    }

    /** The hook as one JSON object; the payload (base64) only when asked for. */
    static String json(StoredHook stored, boolean withPayload) {
        Json json = new Json().beginObject().member("tenant", stored.tenantId()).member("seq", stored.seq());
        Optional<Hook> decoded = stored.hook();
        if (decoded.isEmpty()) {
            json.member("hook", (String) null).member("source", (String) null).member("receivedAt", (String) null)
                    .member("idempotencyKey", (String) null).member("orderingKey", (String) null)
                    .member("traceparent", (String) null).name("headers").nullValue()
                    .name("payloadBytes").nullValue();
        } else {
            Hook hook = decoded.get();
            json.member("hook", hook.id())
                    .member("source", hook.sourceId())
                    .member("receivedAt", stored.receivedAt().map(Instant::toString).orElse(null))
                    .member("idempotencyKey", hook.idempotencyKey().orElse(null))
                    .member("orderingKey", hook.orderingKey().orElse(null))
                    .member("traceparent", hook.traceContext().map(TraceContext::traceparent).orElse(null))
                    .name("headers").beginObject();
            hook.headers().forEach(json::member);
            json.endObject().member("payloadBytes", hook.payloadLength());
            if (withPayload) {
                json.member("payload", Base64.getEncoder().encodeToString(hook.payload()));
            }
        }
        json.name("deliveries").beginArray();
        for (StoredDelivery d : stored.deliveries()) {
            json.beginObject()
                    .member("sink", d.sink())
                    .member("state", state(d))
                    .member("attempts", d.attempts())
                    .member("lastAttemptAt", d.lastAttemptAt().map(Instant::toString).orElse(null))
                    .member("lastError", d.lastError())
                    .endObject();
        }
        return json.endArray().endObject().text();
    }

    private static String state(StoredDelivery delivery) {
        return delivery.state().name().toLowerCase(Locale.ROOT);
    }

    private static Optional<String> utf8(byte[] bytes) {
        try {
            return Optional.of(StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString());
        } catch (CharacterCodingException e) {
            return Optional.empty();
        }
    }
}

package io.ankusa.queue.upkeep;

import io.ankusa.api.AuditAction;
import io.ankusa.api.EndpointDisableReason;
import io.ankusa.api.events.EndpointState;
import io.ankusa.api.events.EndpointStateChanged;
import io.ankusa.queue.deliveries.EndpointBook;
import io.ankusa.queue.events.EventHub;
import io.ankusa.queue.intake.TenantOrdinals;
import io.ankusa.queue.ledger.EndpointRow;
import java.time.InstantSource;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * An operator's enable or disable of one endpoint through the {@link EndpointBook} (one synced
 * batch), then, when the state changed, one audit entry ({@code endpoint-enable} or
 * {@code endpoint-disable} with counts {@code sink} and {@code operator}) and an
 * {@link EndpointStateChanged} event on the queue's listeners. Doing what is already so changes,
 * records and publishes nothing.
 */
public final class AuditedEndpoints {

    private final TenantOrdinals ordinals;
    private final EndpointBook book;
    private final AuditLog audit;
    private final EventHub events;
    private final InstantSource clock;

    /** Over the queue's parts. */
    public AuditedEndpoints(TenantOrdinals ordinals, EndpointBook book, AuditLog audit, EventHub events,
            InstantSource clock) {
        this.ordinals = Objects.requireNonNull(ordinals, "ordinals");
        this.book = Objects.requireNonNull(book, "book");
        this.audit = Objects.requireNonNull(audit, "audit");
        this.events = Objects.requireNonNull(events, "events");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /**
     * Enables endpoint {@code (tenant, sink)}; its failure history is cleared. An unknown tenant's endpoints are all
     * active. Audited with {@code actor}.
     */
    public EndpointRow enable(String tenant, int sink, Optional<String> actor) {
        requireSink(sink);
        OptionalLong ord = ordinals.ord(Objects.requireNonNull(tenant, "tenant"));
        if (ord.isEmpty()) {
            return EndpointRow.healthy(1, sink);
        }
        EndpointBook.Change change = book.change(ord.getAsLong(), sink, EndpointRow::enable);
        if (change.before().disabled()) {
            Map<String, Long> counts = new LinkedHashMap<>();
            counts.put("sink", (long) sink);
            audit.append(AuditAction.ENDPOINT_ENABLE, tenant, counts, actor);
            publish(tenant, sink, EndpointState.DISABLED, EndpointState.ACTIVE, "enabled by an operator");
        }
        return change.after();
    }

    /**
     * Disables endpoint {@code (tenant, sink)} (reason {@code operator}); one already disabled keeps
     * its reason and time. Audited with {@code actor}.
     *
     * @throws IllegalArgumentException for a tenant the queue has never seen
     */
    public EndpointRow disable(String tenant, int sink, Optional<String> actor) {
        requireSink(sink);
        OptionalLong ord = ordinals.ord(Objects.requireNonNull(tenant, "tenant"));
        if (ord.isEmpty()) {
            throw new IllegalArgumentException("unknown tenant: the queue holds nothing of it");
        }
        long now = clock.millis();
        EndpointBook.Change change = book.change(ord.getAsLong(), sink,
                row -> row.disabled() ? row : row.disable(EndpointDisableReason.OPERATOR, now));
        if (!change.before().disabled()) {
            Map<String, Long> counts = new LinkedHashMap<>();
            counts.put("sink", (long) sink);
            counts.put(EndpointDisableReason.OPERATOR.code(), 1L);
            audit.append(AuditAction.ENDPOINT_DISABLE, tenant, counts, actor);
            publish(tenant, sink, EndpointState.ACTIVE, EndpointState.DISABLED, EndpointDisableReason.OPERATOR.code());
        }
        return change.after();
    }

    private void publish(String tenant, int sink, EndpointState before, EndpointState after, String reason) {
        if (events.active()) {
            EndpointStateChanged changed = new EndpointStateChanged(tenant, sink, before, after, reason);
            events.publish(l -> l.onEndpointStateChanged(changed));
        }
    }

    private static void requireSink(int sink) {
        if (sink < 0 || sink > 65_535) {
            throw new IllegalArgumentException("sink must be 0..65535: " + sink);
        }
    }
}

package io.ankusa.dispatch.engine;

import io.ankusa.api.AuditAction;
import io.ankusa.api.EndpointDisableReason;
import io.ankusa.api.EndpointSettings;
import io.ankusa.api.events.EndpointState;
import io.ankusa.api.events.EndpointStateChanged;
import io.ankusa.dispatch.sink.SinkOutcome;
import io.ankusa.queue.events.EventHub;
import io.ankusa.queue.ledger.AuditRecorder;
import io.ankusa.queue.ledger.ClaimedDelivery;
import io.ankusa.queue.ledger.EndpointLedger;
import io.ankusa.queue.ledger.EndpointRow;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a batch of outcomes does to the stored endpoint states, decided on the settler thread and
 * committed in the settle batch (so a {@code 410} and the endpoint it disables are one commit):
 *
 * <ul>
 *   <li>a delivered attempt clears the endpoint's "failing since" (a disabled endpoint stays
 *       disabled: an operator enables it);</li>
 *   <li>a failed attempt ({@code Retry} or {@code Dead}) starts "failing since" now if it was not
 *       failing; if it has been failing for {@code endpoint.disable-after} or longer, the endpoint
 *       is disabled, reason {@code failing};</li>
 *   <li>{@code 410 Gone} ({@link SinkOutcome.EndpointGone}) disables it, reason {@code gone}.</li>
 * </ul>
 *
 * <p>After the commit, each endpoint disabled by the batch is audited ({@code endpoint-disable},
 * counts {@code sink} and the reason code = 1; synced, after the settle: a crash in between leaves
 * the endpoint disabled, its row saying why and since when, without the audit entry) and published
 * as {@link EndpointStateChanged}.
 */
final class EndpointTransitions {

    private static final Logger LOG = LoggerFactory.getLogger(EndpointTransitions.class);

    /**
     * An attempt's outcome.
     *
     * @param delivery the claimed delivery
     * @param outcome  what the sink said
     */
    record Outcome(ClaimedDelivery delivery, SinkOutcome outcome) {
    }

    /**
     * An endpoint state written by a settle.
     *
     * @param tenant the tenant's name
     * @param before the state before
     * @param after  the state committed
     * @param reason the outcome's reason that made it
     */
    record Change(String tenant, EndpointRow before, EndpointRow after, String reason) {
    }

    private final EndpointLedger states;
    private final EndpointSettings settings;
    private final AuditRecorder audit;

    EndpointTransitions(EndpointLedger states, EndpointSettings settings, AuditRecorder audit) {
        this.states = Objects.requireNonNull(states, "states");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.audit = Objects.requireNonNull(audit, "audit");
    }

    /** Whether a disabled endpoint's deliveries wait (rather than go to the dead letters). */
    boolean waits() {
        return settings.disabledPolicy() == EndpointSettings.DisabledPolicy.WAIT;
    }

    /**
     * Decides the endpoint changes of {@code outcomes} at {@code now}, commits them through
     * {@code commit} (the settle, which returns the rows it wrote) and applies what was written,
     * as the one endpoint writer.
     *
     * @return the changes committed
     */
    List<Change> settle(List<Outcome> outcomes, long now, Function<List<EndpointRow>, List<EndpointRow>> commit) {
        return states.writing(() -> {
            Map<Long, Change> changes = new LinkedHashMap<>();
            Map<Long, EndpointRow> current = new HashMap<>();
            for (Outcome o : outcomes) {
                ClaimedDelivery d = o.delivery();
                long id = EndpointRow.idOf(d.row().ord(), d.sink());
                EndpointRow before = current.computeIfAbsent(id, k -> states.get(d.row().ord(), d.sink()));
                EndpointRow after = next(before, o.outcome(), now);
                if (!after.equals(before)) {
                    current.put(id, after);
                    Change first = changes.get(id);
                    changes.put(id, new Change(d.tenantId(), first == null ? before : first.before(), after,
                            o.outcome().reason()));
                }
            }
            List<EndpointRow> rows = changes.values().stream().map(Change::after).toList();
            List<EndpointRow> written = commit.apply(rows);
            states.applied(written);
            List<Change> committed = new ArrayList<>(written.size());
            for (EndpointRow row : written) {
                committed.add(changes.get(row.id()));
            }
            return committed;
        });
    }

    private EndpointRow next(EndpointRow row, SinkOutcome outcome, long now) {
        if (outcome instanceof SinkOutcome.Delivered) {
            return row.disabled() ? new EndpointRow(row.ord(), row.sink(), row.disabledBy(), row.since(), 0)
                    : row.enable();
        }
        if (outcome instanceof SinkOutcome.EndpointGone) {
            return row.disabled() ? row : row.failing(now).disable(EndpointDisableReason.GONE, now);
        }
        if (outcome instanceof SinkOutcome.Retry || outcome instanceof SinkOutcome.Dead) {
            EndpointRow failing = row.failing(now);
            if (!failing.disabled() && now - failing.failingSince() >= settings.disableAfter().toMillis()) {
                return failing.disable(EndpointDisableReason.FAILING, now);
            }
            return failing;
        }
        return row;
    }

    /** Audits and publishes the endpoints {@code changes} disabled (settler thread, after the commit). */
    void report(List<Change> changes, EventHub events) {
        for (Change c : changes) {
            if (c.before().disabled() || !c.after().disabled()) {
                continue;
            }
            String code = c.after().disabledBy().orElseThrow().code();
            LOG.atWarn().addKeyValue("tenant", c.tenant()).addKeyValue("sink", c.after().sink())
                    .addKeyValue("reason", code).log("endpoint disabled; its deliveries {} until it is enabled",
                            waits() ? "wait" : "are dead-lettered");
            Map<String, Long> counts = new LinkedHashMap<>();
            counts.put("sink", (long) c.after().sink());
            counts.put(code, 1L);
            try {
                audit.recordAudit(AuditAction.ENDPOINT_DISABLE, c.tenant(), counts);
            } catch (RuntimeException e) {
                LOG.error("endpoint {}/{} is disabled (stored) but its audit entry could not be written", c.tenant(),
                        c.after().sink(), e);
            }
            if (events.active()) {
                EndpointStateChanged changed =
                        new EndpointStateChanged(c.tenant(), c.after().sink(), EndpointState.ACTIVE,
                        EndpointState.DISABLED, code + ": " + c.reason());
                events.publish(l -> l.onEndpointStateChanged(changed));
            }
        }
    }
}

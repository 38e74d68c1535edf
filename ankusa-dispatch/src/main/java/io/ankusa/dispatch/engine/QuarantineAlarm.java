package io.ankusa.dispatch.engine;

import io.ankusa.api.events.Quarantined;
import io.ankusa.queue.events.EventHub;
import io.ankusa.queue.ledger.QuarantinedRow;
import io.ankusa.queue.ledger.TenantDirectory;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reports the deliveries a claim moved into the quarantine as corruption: one ERROR per row,
 * naming the tenant, the hook (by seq: the hook itself does not decode) and the sink. The one place
 * where a delivery becomes quarantined in the dispatcher's eyes, so the pipeline's listeners get
 * their {@link Quarantined} event from here.
 */
final class QuarantineAlarm {

    private static final Logger LOG = LoggerFactory.getLogger(QuarantineAlarm.class);

    private final TenantDirectory tenants;
    private final EventHub events;

    QuarantineAlarm(TenantDirectory tenants, EventHub events) {
        this.tenants = Objects.requireNonNull(tenants, "tenants");
        this.events = Objects.requireNonNull(events, "events");
    }

    /** Reports {@code rows}, just committed to the quarantine. */
    void quarantined(List<QuarantinedRow> rows) {
        for (QuarantinedRow q : rows) {
            String tenant = tenants.name(q.ord()).orElse("#" + q.ord());
            LOG.error("store corruption: tenant '{}' hook seq {} sink {} quarantined ({}); its delivery is kept and"
                    + " no longer due. List it with 'ankusa quarantine list', restore the hook, then release it"
                    + " ('ankusa quarantine release') or purge it", tenant, q.seq(), q.sink(),
                    q.reason() == QuarantinedRow.Reason.HOOK_UNDECODABLE ? "the stored hook does not decode"
                            : "the stored delivery row does not decode");
            if (events.active()) {
                boolean hook = q.reason() == QuarantinedRow.Reason.HOOK_UNDECODABLE;
                Quarantined event = new Quarantined(hook ? "hook" : "delivery", q.seq(), q.sink(),
                        hook ? "the stored hook does not decode" : "the stored delivery row does not decode");
                events.publish(listener -> listener.onQuarantined(event));
            }
        }
    }
}

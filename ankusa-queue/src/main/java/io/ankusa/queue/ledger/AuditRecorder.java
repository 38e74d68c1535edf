package io.ankusa.queue.ledger;

import io.ankusa.api.AuditAction;
import io.ankusa.api.AuditEntry;
import java.util.Map;
import java.util.Optional;

/**
 * Records an operator action in a queue's audit trail. The queue records its own purges; the
 * dispatcher's replayer records its revivals here. Not on the public {@code Queue}: users read the
 * trail, they do not write it.
 */
public interface AuditRecorder {

    /**
     * Records an action (synced), for example {@link AuditAction#REPLAY} with counts such as
     * {@code revived}.
     *
     * @param action   what was done
     * @param tenantId to which tenant
     * @param counts   what it affected
     * @return the entry as stored
     */
    default AuditEntry recordAudit(AuditAction action, String tenantId, Map<String, Long> counts) {
        return recordAudit(action, tenantId, counts, Optional.empty());
    }

    /**
     * Records an action (synced) with the principal that made it.
     *
     * @param action   what was done
     * @param tenantId to which tenant
     * @param counts   what it affected
     * @param actor    who made it, when the caller named someone
     * @return the entry as stored
     */
    AuditEntry recordAudit(AuditAction action, String tenantId, Map<String, Long> counts, Optional<String> actor);
}

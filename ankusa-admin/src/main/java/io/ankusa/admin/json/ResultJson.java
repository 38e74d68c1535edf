package io.ankusa.admin.json;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ankusa.api.ErasureResult;
import io.ankusa.api.PurgeResult;
import io.ankusa.api.QuarantineResult;

/** The JSON of what the mutations return: purge, erasure and quarantine results. */
public final class ResultJson {

    private ResultJson() {
    }

    /**
     * A tenant purge's counts.
     *
     * @param result the result
     * @return the object
     */
    public static ObjectNode purge(PurgeResult result) {
        ObjectNode node = Nodes.object();
        node.put("tenant", result.tenantId());
        node.put("pending", result.pending());
        node.put("scheduled", result.scheduled());
        node.put("dead", result.dead());
        node.put("bytes", result.bytes());
        return node;
    }

    /**
     * A tenant erasure's counts.
     *
     * @param result the result
     * @return the object
     */
    public static ObjectNode erasure(ErasureResult result) {
        ObjectNode node = Nodes.object();
        node.put("tenant", result.tenant());
        node.put("erased", result.erased());
        node.put("pending", result.pending());
        node.put("scheduled", result.scheduled());
        node.put("inflight", result.inflight());
        node.put("dead", result.dead());
        node.put("bytes", result.bytes());
        node.put("hooks", result.hooks());
        node.put("dedupeKeys", result.dedupeKeys());
        node.put("quarantined", result.quarantined());
        return node;
    }

    /**
     * A quarantine release's or purge's counts.
     *
     * @param result the result
     * @return the object
     */
    public static ObjectNode quarantine(QuarantineResult result) {
        ObjectNode node = Nodes.object();
        node.put("tenant", result.tenant());
        node.put("rows", result.rows());
        node.put("bytes", result.bytes());
        return node;
    }
}

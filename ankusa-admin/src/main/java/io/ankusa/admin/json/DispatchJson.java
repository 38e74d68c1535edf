package io.ankusa.admin.json;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ankusa.dispatch.report.TenantDispatch;

/** The JSON of what a pipeline's scheduler knows of a tenant. */
public final class DispatchJson {

    private DispatchJson() {
    }

    /**
     * A tenant's scheduler state.
     *
     * @param dispatch the state
     * @return the object
     */
    public static ObjectNode tenant(TenantDispatch dispatch) {
        ObjectNode node = Nodes.object();
        node.put("weight", dispatch.weight());
        node.put("inflight", dispatch.inflight());
        node.put("maxInflight", dispatch.maxInflight());
        if (Double.isFinite(dispatch.deliveryRate().perSecond())) {
            node.put("ratePerSecond", dispatch.deliveryRate().perSecond());
            node.put("rateBurst", dispatch.deliveryRate().burst());
            node.put("tokens", dispatch.tokens());
        } else {
            node.putNull("ratePerSecond");
        }
        node.put("hold", QueueJson.lower(dispatch.hold()));
        return node;
    }
}

package io.ankusa.admin.json;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ankusa.api.EndpointSecret;
import io.ankusa.api.RegisteredEndpoint;
import java.time.Instant;

/**
 * A registered endpoint as JSON. Its signing secrets and the values of its extra headers (which
 * may carry credentials) are written only for a caller that may change the registry; for the
 * others each secret shows only when it expires and each header only its name.
 */
public final class RegistryJson {

    private RegistryJson() {
    }

    /**
     * The endpoint.
     *
     * @param endpoint     the endpoint as the registry reads it
     * @param withSecrets  whether to write its secrets and header values (an operator's view)
     * @return the object
     */
    public static ObjectNode endpoint(RegisteredEndpoint endpoint, boolean withSecrets) {
        ObjectNode node = Nodes.object();
        node.put("tenant", endpoint.tenant());
        node.put("id", endpoint.id());
        node.put("sink", endpoint.sink());
        node.put("url", endpoint.url().toString());
        node.put("description", endpoint.description());
        ArrayNode types = node.putArray("eventTypes");
        endpoint.eventTypes().forEach(types::add);
        node.put("rateLimit", endpoint.rateLimit());
        node.put("maxInflight", endpoint.maxInflight());
        ObjectNode headers = node.putObject("headers");
        endpoint.headers().forEach((name, value) -> {
            if (withSecrets) {
                headers.put(name, value);
            } else {
                headers.putNull(name);
            }
        });
        ObjectNode metadata = node.putObject("metadata");
        endpoint.metadata().forEach(metadata::put);
        ArrayNode secrets = node.putArray("secrets");
        for (EndpointSecret secret : endpoint.secrets()) {
            ObjectNode s = secrets.addObject();
            if (withSecrets) {
                s.put("secret", secret.secret());
            } else {
                s.putNull("secret");
            }
            if (secret.expiresAt() == 0) {
                s.putNull("expiresAt");
            } else {
                Nodes.put(s, "expiresAt", Instant.ofEpochMilli(secret.expiresAt()));
            }
        }
        node.put("enabled", endpoint.enabled());
        return node;
    }
}

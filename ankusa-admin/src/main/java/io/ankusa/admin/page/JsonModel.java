package io.ankusa.admin.page;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A route's JSON answer as a template model: objects become maps, arrays lists, scalars their
 * values, {@code null} absent. Each object with a {@code tenant} gains {@code tenantSeg}, the id
 * percent-encoded as one path segment, so links built from producer strings stay inside their
 * attribute and their path (the template escapes them again as HTML); each with a {@code state}
 * gains {@code is_<state>} (true), for the template's badges and buttons.
 */
final class JsonModel {

    private JsonModel() {
    }

    static Object of(JsonNode node) {
        if (node == null || node.isNull() || node.isMissingNode()) {
            return null;
        }
        if (node.isObject()) {
            Map<String, Object> map = new LinkedHashMap<>();
            node.properties().forEach(e -> {
                Object value = of(e.getValue());
                if (value != null) {
                    map.put(e.getKey(), value);
                }
            });
            JsonNode tenant = node.get("tenant");
            if (tenant != null && tenant.isTextual()) {
                map.put("tenantSeg", segment(tenant.asText()));
            }
            JsonNode state = node.get("state");
            if (state != null && state.isTextual()) {
                map.put("is_" + state.asText(), true);
            }
            return map;
        }
        if (node.isArray()) {
            List<Object> list = new ArrayList<>();
            node.forEach(n -> list.add(of(n)));
            return list;
        }
        if (node.isBoolean()) {
            return node.booleanValue();
        }
        if (node.isIntegralNumber()) {
            return node.longValue();
        }
        if (node.isNumber()) {
            return node.doubleValue();
        }
        return node.asText();
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> map(JsonNode node) {
        Object model = of(node);
        return model instanceof Map<?, ?> ? (Map<String, Object>) model : new LinkedHashMap<>();
    }

    /** {@code value} percent-encoded as one path segment (a space as %20, '/' as %2F). */
    static String segment(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
    }
}

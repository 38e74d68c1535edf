package io.ankusa.admin.route;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A path template such as {@code /v1/tenants/{tenant}/hooks/{seq}}: literal segments and named
 * variables, each variable one whole (decoded) segment.
 */
final class PathTemplate {

    private final String text;
    private final List<String> segments;

    PathTemplate(String text) {
        if (!text.startsWith("/")) {
            throw new IllegalArgumentException("a template starts with '/': " + text);
        }
        this.text = text;
        this.segments = List.of(text.substring(1).split("/", -1));
    }

    /** The template as written (as the OpenAPI document names it). */
    String text() {
        return text;
    }

    /**
     * The variables' values when {@code path} (decoded segments) fits the template.
     *
     * @param path the request's decoded path segments
     * @return the values by variable name, or empty when it does not fit
     */
    Optional<Map<String, String>> match(List<String> path) {
        if (path.size() != segments.size()) {
            return Optional.empty();
        }
        Map<String, String> values = new LinkedHashMap<>();
        for (int i = 0; i < segments.size(); i++) {
            String segment = segments.get(i);
            if (segment.startsWith("{") && segment.endsWith("}")) {
                values.put(segment.substring(1, segment.length() - 1), path.get(i));
            } else if (!segment.equals(path.get(i))) {
                return Optional.empty();
            }
        }
        return Optional.of(values);
    }
}

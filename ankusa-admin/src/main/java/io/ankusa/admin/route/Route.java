package io.ankusa.admin.route;

import java.util.Objects;

/**
 * One route: a method, a path template and its handler.
 *
 * @param method   {@code GET} or {@code POST}
 * @param template the path template
 * @param handler  what answers it
 */
record Route(String method, PathTemplate template, Handler handler) {

    Route {
        if (!method.equals("GET") && !method.equals("POST")) {
            throw new IllegalArgumentException("routes are GET or POST: " + method);
        }
        Objects.requireNonNull(template, "template");
        Objects.requireNonNull(handler, "handler");
    }

    /** {@code "GET /v1/stats"}: the route as the route table and the OpenAPI document list it. */
    String key() {
        return method + " " + template.text();
    }
}

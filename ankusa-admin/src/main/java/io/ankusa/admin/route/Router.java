package io.ankusa.admin.route;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The API's routes, and the one place a request finds its handler: by the decoded path segments
 * (below the mount point) and the method. A path no route has is {@code not_found}; a path some
 * route has under another method is {@code method_not_allowed}.
 */
public final class Router implements AutoCloseable {

    private final List<Route> routes;
    private final List<AutoCloseable> resources;

    Router(List<Route> routes) {
        this(routes, List.of());
    }

    Router(List<Route> routes, List<AutoCloseable> resources) {
        this.routes = List.copyOf(routes);
        this.resources = List.copyOf(resources);
        Set<String> keys = new LinkedHashSet<>();
        for (Route route : this.routes) {
            if (!keys.add(route.key())) {
                throw new IllegalArgumentException("two routes for " + route.key());
            }
        }
    }

    /**
     * The route for {@code method} and {@code path}, with its path values.
     *
     * @param method the request's method
     * @param path   the decoded path segments below the mount point ({@code ["v1", "stats"]})
     * @return the route found
     * @throws ApiException {@code not_found} or {@code method_not_allowed}
     */
    public Found find(String method, List<String> path) {
        boolean pathKnown = false;
        for (Route route : routes) {
            Optional<Map<String, String>> values = route.template().match(path);
            if (values.isPresent()) {
                pathKnown = true;
                if (route.method().equals(method)) {
                    return new Found(route, values.get());
                }
            }
        }
        if (pathKnown) {
            throw new ApiException(405, "method_not_allowed", method + " is not allowed here");
        }
        throw ApiException.notFound("no such route");
    }

    /**
     * Stops what the routes keep running: the tenant ranking's walk, and the bulk replays (cancelled). Idempotent.
     */
    @Override
    public void close() {
        for (AutoCloseable resource : resources) {
            try {
                resource.close();
            } catch (Exception e) {
                throw new IllegalStateException("an admin API resource did not close", e);
            }
        }
    }

    /** Every route as {@code "METHOD /template"}, in the order they were declared (for tests). */
    Set<String> routeTable() {
        Set<String> table = new LinkedHashSet<>();
        routes.forEach(r -> table.add(r.key()));
        return table;
    }

    /** The routes, in declaration order. */
    List<Route> routes() {
        return new ArrayList<>(routes);
    }

    /** A route found for a request, with the values of its template's variables. */
    public static final class Found {

        private final Route route;
        private final Map<String, String> values;

        Found(Route route, Map<String, String> values) {
            this.route = route;
            this.values = Map.copyOf(values);
        }

        /**
         * Whether the route changes something (a {@code POST}: it needs an operator and the CSRF token).
         *
         * @return true for a mutation
         */
        public boolean mutation() {
            return route.method().equals("POST");
        }

        /**
         * The values of the template's variables, decoded.
         *
         * @return the values by name
         */
        public Map<String, String> values() {
            return values;
        }

        /**
         * Answers {@code request} with the route's handler.
         *
         * @param request the request, with this route's path values
         * @return the answer
         * @throws ApiException for an error answer
         */
        public ApiResponse handle(ApiRequest request) {
            return route.handler().handle(request);
        }
    }
}

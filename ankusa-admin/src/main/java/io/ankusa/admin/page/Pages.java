package io.ankusa.admin.page;

import com.fasterxml.jackson.databind.JsonNode;
import io.ankusa.admin.route.ApiException;
import io.ankusa.admin.route.ApiRequest;
import io.ankusa.admin.route.Caller;
import io.ankusa.admin.route.Router;
import java.nio.ByteBuffer;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.charset.CharacterCodingException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The dashboard's pages, rendered from the answers of the API's own GET routes (found through the
 * same {@link Router}, with the same caller, so the same access policy, tenant scope and payload
 * rule apply and no data logic is repeated here). Paths are below the mount point, as segments.
 */
public final class Pages {

    /** How many dead letters the tenant page shows; its dead-letter page pages through all. */
    static final int TENANT_DEAD_ROWS = 20;

    private final Router router;
    private final Templates templates = new Templates();

    /**
     * Pages over {@code router}'s routes.
     *
     * @param router the API's routes
     */
    public Pages(Router router) {
        this.router = Objects.requireNonNull(router, "router");
    }

    /**
     * The page at {@code path}.
     *
     * @param path   the decoded segments below the mount point ({@code []} is the overview)
     * @param query  the query parameters
     * @param caller who asks
     * @param base   the mount point's path, for links ({@code ""} at the root)
     * @return the page
     * @throws ApiException {@code not_found} for a path no page has, or what the route answered
     */
    public Page render(List<String> path, Map<String, String> query, Caller caller, String base) {
        Map<String, Object> model = new HashMap<>();
        model.put("base", base);
        model.put("principal", caller.principal());
        model.put("role", caller.role());
        model.put("operator", caller.operator());
        model.put("csrf", caller.csrfToken());
        int n = path.size();
        String first = n == 0 ? "" : path.get(0);
        if (n == 0 || n == 1 && first.isEmpty()) {
            return overview(model, caller);
        }
        if (first.equals("tenants") && n == 1) {
            return tenants(model, query, caller);
        }
        if (first.equals("tenants") && n == 2) {
            return tenant(model, path.get(1), caller);
        }
        if (first.equals("tenants") && n == 3 && path.get(2).equals("dead")) {
            return dead(model, path.get(1), query, caller);
        }
        if (first.equals("tenants") && n == 4 && path.get(2).equals("hooks")) {
            return hook(model, path.get(1), path.get(3), caller);
        }
        if (n == 1) {
            switch (first) {
                case "dead":
                    if (query.containsKey("tenant")) {
                        return Page.redirect(base + "/tenants/" + JsonModel.segment(query.get("tenant")) + "/dead");
                    }
                    return deadTenants(model, caller);
                case "endpoints":
                    return listing(model, "endpoints", "endpoints", caller, query);
                case "quarantine":
                    return listing(model, "quarantine", "quarantined", caller, query);
                case "audit":
                    return listing(model, "audit", "entries", caller, query);
                default:
                    break;
            }
        }
        throw ApiException.notFound("no such page");
    }

    /** The sign-in page, with {@code message} (empty for none). */
    public String signIn(String base, String message) {
        Map<String, Object> model = new HashMap<>();
        model.put("base", base);
        model.put("message", message);
        model.put("title", "Sign in");
        return templates.render("signin", model);
    }

    /** An error page for a request that has a caller. */
    public String error(Caller caller, String base, int status, String code, String message) {
        Map<String, Object> model = new HashMap<>();
        model.put("base", base);
        model.put("principal", caller.principal());
        model.put("role", caller.role());
        model.put("csrf", caller.csrfToken());
        model.put("title", "Error " + status);
        model.put("status", status);
        model.put("code", code);
        model.put("message", message);
        return templates.render("error", model);
    }

    private Page overview(Map<String, Object> model, Caller caller) {
        model.put("title", "Overview");
        model.put("navOverview", true);
        // The script updates the figures only from samples taken after this page's own read.
        model.put("renderedAt", System.currentTimeMillis() / 1000);
        model.putAll(JsonModel.map(get(caller, Map.of(), "v1", "stats")));
        return Page.ok(templates.render("overview", model));
    }

    private Page tenants(Map<String, Object> model, Map<String, String> query, Caller caller) {
        model.put("title", "Tenants");
        model.put("navTenants", true);
        String sort = query.getOrDefault("sort", "tenant");
        boolean byId = sort.equals("tenant");
        Map<String, String> params = new HashMap<>();
        // By id, the index's own order with its cursor; by a counter, the API's ranking of every tenant.
        copy(query, params, byId ? new String[] {"prefix", "after", "limit"} : new String[] {"prefix", "limit"});
        if (!byId) {
            params.put("sort", sort);
        }
        Map<String, Object> page = JsonModel.map(get(caller, params, "v1", "tenants"));
        List<Map<String, Object>> rows = rows(page.get("tenants"));
        model.put("tenants", rows);
        model.put("empty", rows.isEmpty());
        model.put("prefix", query.getOrDefault("prefix", ""));
        model.put("sort", sort);
        model.put("sortBy" + sort, true);
        Object rankedAt = page.get("rankedAt");
        if (rankedAt != null) {
            model.put("rankedAt", rankedAt);
            model.put("rankedTenants", page.get("rankedTenants"));
        }
        Object next = page.get("next");
        if (next != null) {
            model.put("nextUrl", "?prefix=" + JsonModel.segment(query.getOrDefault("prefix", ""))
                    + "&sort=" + JsonModel.segment(sort) + "&after=" + JsonModel.segment(next.toString()));
        }
        return Page.ok(templates.render("tenants", model));
    }

    private Page tenant(Map<String, Object> model, String tenant, Caller caller) {
        model.put("navTenants", true);
        Map<String, Object> detail = JsonModel.map(get(caller, Map.of(), "v1", "tenants", tenant));
        model.putAll(detail);
        model.put("title", "Tenant " + tenant);
        Map<String, Object> dead = JsonModel.map(get(caller, Map.of("limit", String.valueOf(TENANT_DEAD_ROWS)),
                "v1", "tenants", tenant, "dead"));
        List<Map<String, Object>> letters = rows(dead.get("letters"));
        model.put("letters", letters);
        model.put("noLetters", letters.isEmpty());
        model.put("moreLetters", dead.get("next") != null);
        model.put("noEndpoints", rows(detail.get("endpoints")).isEmpty());
        model.put("noQuarantined", rows(detail.get("quarantined")).isEmpty());
        List<Map<String, Object>> registered = rows(JsonModel.map(get(caller, Map.of(), "v1", "tenants", tenant,
                "registry")).get("endpoints"));
        // The page shows how many secrets sign, never a secret: a screen is easily shared.
        registered.forEach(e -> e.put("secretCount", rows(e.get("secrets")).size()));
        model.put("registered", registered);
        model.put("noRegistered", registered.isEmpty());
        return Page.ok(templates.render("tenant", model));
    }

    private Page dead(Map<String, Object> model, String tenant, Map<String, String> query, Caller caller) {
        model.put("navDead", true);
        model.put("title", "Dead letters of " + tenant);
        Map<String, String> params = new HashMap<>();
        copy(query, params, "after", "limit");
        Map<String, Object> page = JsonModel.map(get(caller, params, "v1", "tenants", tenant, "dead"));
        model.putAll(page);
        List<Map<String, Object>> letters = rows(page.get("letters"));
        model.put("noLetters", letters.isEmpty());
        Object next = page.get("next");
        if (next != null) {
            model.put("nextUrl", "?after=" + JsonModel.segment(next.toString()));
        }
        return Page.ok(templates.render("dead", model));
    }

    private Page deadTenants(Map<String, Object> model, Caller caller) {
        model.put("navDead", true);
        model.put("title", "Dead letters");
        Map<String, Object> page = JsonModel.map(get(caller, Map.of("sort", "dead", "limit", "1000"), "v1",
                "tenants"));
        List<Map<String, Object>> rows = rows(page.get("tenants")).stream().filter(t -> stat(t, "dead") > 0)
                .toList();
        model.put("tenants", rows);
        model.put("empty", rows.isEmpty());
        return Page.ok(templates.render("deadtenants", model));
    }

    private Page hook(Map<String, Object> model, String tenant, String seq, Caller caller) {
        model.put("navTenants", true);
        boolean payload = caller.payloads().test(tenant);
        Map<String, Object> hook = JsonModel.map(get(caller, payload ? Map.of("payload", "true") : Map.of(),
                "v1", "tenants", tenant, "hooks", seq));
        model.putAll(hook);
        model.put("title", "Hook " + seq + " of " + tenant);
        List<Map<String, Object>> headers = new ArrayList<>();
        if (hook.get("headers") instanceof Map<?, ?> h) {
            h.forEach((k, v) -> {
                Map<String, Object> header = new LinkedHashMap<>();
                header.put("name", k);
                header.put("value", v);
                headers.add(header);
            });
        }
        model.put("headerList", headers);
        model.put("noHeaders", headers.isEmpty());
        model.put("payloadHidden", !payload);
        if (hook.get("payload") instanceof String encoded) {
            model.put("payloadText", text(Base64.getDecoder().decode(encoded)));
        }
        if (Boolean.TRUE.equals(hook.get("decodable"))) {
            Map<String, Object> attempts = JsonModel.map(get(caller, Map.of("limit", "200"),
                    "v1", "tenants", tenant, "hooks", seq, "attempts"));
            List<Map<String, Object>> list = rows(attempts.get("attempts"));
            model.put("attempts", list);
            model.put("noAttempts", list.isEmpty());
        } else {
            model.put("noAttempts", true);
        }
        return Page.ok(templates.render("hook", model));
    }

    private Page listing(Map<String, Object> model, String name, String array, Caller caller,
            Map<String, String> query) {
        model.put("nav" + Character.toUpperCase(name.charAt(0)) + name.substring(1), true);
        model.put("title", Character.toUpperCase(name.charAt(0)) + name.substring(1));
        Map<String, String> params = new HashMap<>();
        copy(query, params, "limit", "before");
        Map<String, Object> page = JsonModel.map(get(caller, params, "v1", name));
        List<Map<String, Object>> list = rows(page.get(array));
        model.put("rows", list);
        model.put("empty", list.isEmpty());
        if (page.get("before") != null) {
            model.put("nextUrl", "?before=" + page.get("before"));
        }
        return Page.ok(templates.render(name, model));
    }

    private JsonNode get(Caller caller, Map<String, String> query, String... path) {
        Router.Found found = router.find("GET", List.of(path));
        return found.handle(new ApiRequest(found.values(), query, null, caller)).body();
    }

    private static void copy(Map<String, String> from, Map<String, String> to, String... names) {
        for (String name : names) {
            if (from.containsKey(name) && !from.get(name).isEmpty()) {
                to.put(name, from.get(name));
            }
        }
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> rows(Object list) {
        List<Map<String, Object>> out = new ArrayList<>();
        if (list instanceof List<?> l) {
            l.forEach(o -> out.add((Map<String, Object>) o));
        }
        return out;
    }

    private static long stat(Map<String, Object> tenant, String name) {
        return tenant.get("stats") instanceof Map<?, ?> stats && stats.get(name) instanceof Long v ? v : 0;
    }

    /** A payload as text: UTF-8, or a note that it is binary. */
    private static String text(byte[] bytes) {
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            return "(" + bytes.length + " bytes of binary data; base64) " + Base64.getEncoder().encodeToString(bytes);
        }
    }
}

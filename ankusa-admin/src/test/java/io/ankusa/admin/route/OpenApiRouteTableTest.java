package io.ankusa.admin.route;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.ankusa.api.QueueConfig;
import io.ankusa.dispatch.Replayer;
import io.ankusa.queue.Queue;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The OpenAPI document served at {@code /v1/openapi.json} describes exactly the routes the router has. */
class OpenApiRouteTableTest {

    @TempDir
    Path dir;

    @Test
    void theDocumentNamesEveryRouteOfTheRouterAndNoOther() {
        try (Queue queue = Queue.open(QueueConfig.builder(dir).backend("rocksdb").build())) {
            Router router = AdminRoutes.router(queue, Replayer.of(queue), Optional.empty());

            JsonNode document = OpenApi.document();
            assertThat(document.path("openapi").asText()).isEqualTo("3.1.0");
            Set<String> documented = new TreeSet<>();
            Set<String> edge = new TreeSet<>();
            for (Map.Entry<String, JsonNode> path : document.path("paths").properties()) {
                for (Map.Entry<String, JsonNode> method : path.getValue().properties()) {
                    String route = method.getKey().toUpperCase(Locale.ROOT) + " " + path.getKey();
                    (method.getValue().path("x-ankusa-edge").asBoolean() ? edge : documented).add(route);
                }
            }

            assertThat(documented).isEqualTo(new TreeSet<>(router.routeTable()));
            // The ingest edge is a servlet of its own (HookIngestServlet), not a route of the admin router.
            assertThat(edge).containsExactly("POST /v1/hooks");
            assertThat(router.routeTable()).hasSize(35).contains("GET /v1/openapi.json",
                    "POST /v1/tenants/{tenant}/hooks/{seq}/replay");
        }
    }

    @Test
    void everyMutationIsAPostAndEveryPostDocumentsTheCsrfHeader() {
        JsonNode paths = OpenApi.document().path("paths");
        paths.properties().forEach(path -> {
            JsonNode post = path.getValue().path("post");
            // The ingest edge takes a bearer token only: no cookie, so no CSRF header (docs/ingest-edge.md).
            if (!post.isMissingNode() && !post.path("x-ankusa-edge").asBoolean()) {
                assertThat(post.path("parameters").toString()).as(path.getKey())
                        .contains("#/components/parameters/Csrf");
            }
        });
        assertThat(OpenApi.document().at("/components/parameters/Csrf/name").asText()).isEqualTo("X-Ankusa-CSRF");
    }
}

package io.ankusa.cli.command;

import io.ankusa.api.EndpointSpec;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * The options that describe a registered endpoint, for {@code endpoints add} and {@code update}. The
 * endpoint's URL is {@code --endpoint-url}: {@code --url} names the admin API.
 */
final class EndpointSpecOptions {

    @Option(names = "--endpoint-url", paramLabel = "URL", required = true,
            description = "Where its deliveries are posted: an absolute http or https URL.")
    String url;

    @Option(names = "--description", paramLabel = "TEXT", defaultValue = "", description = "A note for people.")
    String description;

    @Option(names = "--event-type", paramLabel = "TYPE",
            description = "An event type it subscribes to: an exact name or prefix.* (repeat for more).")
    List<String> eventTypes = new ArrayList<>();

    @Option(names = "--rate-limit", paramLabel = "N", defaultValue = "0",
            description = "Most deliveries per second (0: none of its own).")
    int rateLimit;

    @Option(names = "--max-inflight", paramLabel = "N", defaultValue = "0",
            description = "Most deliveries in flight at once (0: none of its own).")
    int maxInflight;

    @Option(names = "--header", paramLabel = "NAME=VALUE",
            description = "An extra header sent with every delivery (repeat for more).")
    Map<String, String> headers = new LinkedHashMap<>();

    @Option(names = "--metadata", paramLabel = "KEY=VALUE",
            description = "The application's own key-value pair, stored as given (repeat for more).")
    Map<String, String> metadata = new LinkedHashMap<>();

    /** The spec these options describe, with {@code id} when one is named. */
    EndpointSpec spec(String id) {
        URI to;
        try {
            to = new URI(url);
        } catch (URISyntaxException e) {
            throw new CommandFailure(ExitCode.USAGE, "--endpoint-url is not a URL: " + e.getReason()
                    + " [invalid_url]");
        }
        EndpointSpec spec = EndpointSpec.of(to).withDescription(description).withEventTypes(eventTypes)
                .withLimits(rateLimit, maxInflight).withHeaders(headers).withMetadata(metadata);
        return id == null ? spec : spec.withId(id);
    }
}

package io.ankusa.cli.command;

import io.ankusa.api.EndpointRegistryException;
import io.ankusa.api.EndpointSecret;
import io.ankusa.api.RegisteredEndpoint;
import io.ankusa.cli.console.Json;
import io.ankusa.cli.console.Table;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code ankusa endpoints add|update|rotate|remove}: the changes to a tenant's registered endpoints
 * ({@code Queue.endpointRegistry()}), against the store or over {@code --url} through the admin API's
 * registry routes, with the same output. In store mode each change is audited as {@code cli:<os user>}
 * and URLs are checked as the dispatcher checks them (no private or loopback addresses); over
 * {@code --url} the node's admin API checks them and audits the token's principal. A refusal of the
 * registry exits with {@link ExitCode#UNKNOWN_TENANT} for an unknown tenant or endpoint, else
 * {@link ExitCode#USAGE}, its reason code in brackets.
 */
final class RegistryCommands {

    private RegistryCommands() {
    }

    /** What every registry change shares: the node, the tenant, the output. */
    abstract static class Change implements Callable<Integer> {

        @ParentCommand
        EndpointsCommand parent;

        @Mixin
        ApiOptions api;

        @Spec
        CommandSpec spec;

        @Option(names = "--tenant", paramLabel = "TENANT", required = true, description = "The tenant.")
        String tenant;

        @Option(names = "--json", description = "Print one JSON object instead of the table.")
        boolean json;

        /** The change, on {@code node}; what to print about it. */
        abstract Printed change(Node node);

        @Override
        public Integer call() {
            PrintWriter out = spec.commandLine().getOut();
            try (Node node = Node.open(parent.root, api)) {
                Printed printed;
                try {
                    printed = change(node);
                } catch (EndpointRegistryException e) {
                    throw refusal(e.reason().code(), e.getMessage());
                }
                out.print(json ? printed.json() + System.lineSeparator() : printed.text());
            }
            return ExitCode.OK.code();
        }

        void usage(String message) {
            throw new ParameterException(spec.commandLine(), message);
        }
    }

    /** What a change prints: a table and the same as JSON. */
    record Printed(String text, String json) {

        static Printed endpoint(String verb, RegisteredEndpoint e) {
            Table table = Table.keyValue().title(verb + " endpoint " + e.id() + " of tenant " + e.tenant())
                    .row("sink", Integer.toString(e.sink()))
                    .row("url", e.url().toString())
                    .row("description", e.description().isEmpty() ? "-" : e.description())
                    .row("event types", e.eventTypes().isEmpty() ? "-" : String.join(", ", e.eventTypes()))
                    .row("rate limit", e.rateLimit() == 0 ? "-" : e.rateLimit() + "/s")
                    .row("max in flight", e.maxInflight() == 0 ? "-" : Integer.toString(e.maxInflight()))
                    .row("headers", pairs(e.headers()))
                    .row("metadata", pairs(e.metadata()))
                    .row("enabled", e.enabled() ? "yes" : "no");
            for (EndpointSecret s : e.secrets()) {
                table.row("secret", s.secret() + (s.expiresAt() == 0 ? "" : " (signs until "
                        + Instant.ofEpochMilli(s.expiresAt()) + ")"));
            }
            Json j = new Json().beginObject().member("action", verb).member("tenant", e.tenant())
                    .member("id", e.id()).member("sink", e.sink()).member("url", e.url().toString())
                    .member("description", e.description());
            j.name("eventTypes").beginArray();
            e.eventTypes().forEach(j::value);
            j.endArray().member("rateLimit", e.rateLimit()).member("maxInflight", e.maxInflight());
            object(j.name("headers"), e.headers());
            object(j.name("metadata"), e.metadata());
            j.name("secrets").beginArray();
            for (EndpointSecret s : e.secrets()) {
                j.beginObject().member("secret", s.secret()).name("expiresAt");
                if (s.expiresAt() == 0) {
                    j.nullValue();
                } else {
                    j.value(Instant.ofEpochMilli(s.expiresAt()).toString());
                }
                j.endObject();
            }
            j.endArray().member("enabled", e.enabled());
            return new Printed(table.render(), j.endObject().text());
        }

        private static String pairs(Map<String, String> pairs) {
            if (pairs.isEmpty()) {
                return "-";
            }
            StringBuilder text = new StringBuilder();
            pairs.forEach((k, v) -> text.append(text.length() == 0 ? "" : ", ").append(k).append('=').append(v));
            return text.toString();
        }

        private static void object(Json j, Map<String, String> pairs) {
            j.beginObject();
            pairs.forEach(j::member);
            j.endObject();
        }
    }

    /** The exit code and message of a registry refusal, the same against a store and over {@code --url}. */
    static CommandFailure refusal(String code, String message) {
        ExitCode exit = code.equals("unknown_tenant") || code.equals("unknown_endpoint") ? ExitCode.UNKNOWN_TENANT
                : ExitCode.USAGE;
        return new CommandFailure(exit, message + " [" + code + "]");
    }

    /** Whether {@code code} is one of the registry's reasons. */
    static boolean registryReason(String code) {
        for (EndpointRegistryException.Reason reason : EndpointRegistryException.Reason.values()) {
            if (reason.code().equals(code)) {
                return true;
            }
        }
        return false;
    }

    @Command(name = "add", mixinStandardHelpOptions = true,
            header = "Register an endpoint of a tenant.",
            description = {"Its URL, event types, limits, headers and metadata.",
                "Prints the endpoint with its sink number and its first signing secret (audited)."})
    static final class Add extends Change {

        @Option(names = "--id", paramLabel = "ID", description = "Its id, unique in the tenant (default: generated).")
        String id;

        @Mixin
        EndpointSpecOptions endpoint;

        @Override
        Printed change(Node node) {
            return Printed.endpoint("registered", node.addEndpoint(tenant, endpoint.spec(id)));
        }
    }

    @Command(name = "update", mixinStandardHelpOptions = true,
            header = "Replace a registered endpoint's settings.",
            description = {"Its URL, event types, limits, headers and metadata.",
                "Every option not given is reset to its default; the sink and secrets are kept (audited)."})
    static final class Update extends Change {

        @Option(names = "--id", paramLabel = "ID", required = true, description = "The endpoint's id.")
        String id;

        @Mixin
        EndpointSpecOptions endpoint;

        @Override
        Printed change(Node node) {
            return Printed.endpoint("updated", node.updateEndpoint(tenant, id, endpoint.spec(id)));
        }
    }

    @Command(name = "rotate", mixinStandardHelpOptions = true,
            header = "Rotate a registered endpoint's signing secret.",
            description = {"The old secrets keep signing until the overlap ends.",
                "Prints the endpoint with its secrets: the new one last (audited)."})
    static final class Rotate extends Change {

        @Option(names = "--id", paramLabel = "ID", required = true, description = "The endpoint's id.")
        String id;

        @Option(names = "--overlap", paramLabel = "DURATION", defaultValue = "PT24H",
                description = "How long the old secrets keep signing, ISO-8601 (default: ${DEFAULT-VALUE}).")
        Duration overlap;

        @Override
        Printed change(Node node) {
            if (overlap.isNegative()) {
                usage("--overlap must not be negative: " + overlap);
            }
            return Printed.endpoint("rotated", node.rotateEndpoint(tenant, id, overlap));
        }
    }

    @Command(name = "remove", mixinStandardHelpOptions = true,
            header = "Remove a registered endpoint.",
            description = {"Its sink number is never given to another.",
                "Deliveries already written for it are dead-lettered as unknown (audited)."})
    static final class Remove extends Change {

        @Option(names = "--id", paramLabel = "ID", required = true, description = "The endpoint's id.")
        String id;

        @Override
        Printed change(Node node) {
            node.removeEndpoint(tenant, id);
            String text = Table.keyValue().title("removed endpoint " + id + " of tenant " + tenant).row("id", id)
                    .render();
            return new Printed(text, new Json().beginObject().member("action", "removed")
                    .member("tenant", tenant).member("id", id).endObject().text());
        }
    }
}

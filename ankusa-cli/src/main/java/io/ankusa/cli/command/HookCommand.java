package io.ankusa.cli.command;

import io.ankusa.api.StoredHook;
import java.io.PrintWriter;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code ankusa hook --tenant T --seq N [--payload]}: one stored hook ({@link Node#hook}) with its
 * headers and where each of its deliveries stands. The payload is shown only when asked for: it
 * may hold personal data. A tenant the store never saw, or one that holds no hook of that seq, is
 * {@link ExitCode#UNKNOWN_TENANT}. Over {@code --url}, {@code GET /v1/tenants/{tenant}/hooks/{seq}} (with
 * {@code payload=true} for {@code --payload}, which the node's access policy must allow).
 */
@Command(name = "hook", mixinStandardHelpOptions = true,
        header = "Show one stored hook and where each of its deliveries stands.",
        description = {
            "The hook of --tenant with the seq that dlq, attempts and quarantine list show: its id, source, when it",
            "was received, its idempotency and ordering keys, its headers, and each sink's state, attempts and last",
            "error. The payload only with --payload (it may hold personal data). A hook whose every delivery ended",
            "is deleted; its attempt history remains ('ankusa attempts --hook ID').",
            "With --json, one JSON object on one line (field names in docs/cli.md)."})
final class HookCommand implements Callable<Integer> {

    @ParentCommand
    AnkusaCommand root;

    @Spec
    CommandSpec spec;

    @Mixin
    ApiOptions api;

    @Option(names = "--tenant", paramLabel = "TENANT", required = true, description = "The tenant the hook belongs to.")
    String tenant;

    @Option(names = "--seq", paramLabel = "N", required = true,
            description = "The hook's seq (as dlq, attempts and quarantine list show it).")
    long seq;

    @Option(names = "--payload",
            description = "Also print the payload: as text (escaped) when it is UTF-8, else as base64.")
    boolean payload;

    @Option(names = "--json", description = "Print one JSON object instead of the table.")
    boolean json;

    @Override
    public Integer call() {
        if (seq < 1) {
            throw new ParameterException(spec.commandLine(), "--seq must be 1 or more: " + seq);
        }
        PrintWriter out = spec.commandLine().getOut();
        try (Node node = Node.open(root, api)) {
            node.requireTenant(tenant);
            Optional<StoredHook> hook = node.hook(tenant, seq, payload);
            if (hook.isEmpty()) {
                throw new CommandFailure(ExitCode.UNKNOWN_TENANT, "tenant '" + tenant + "' holds no hook " + seq
                        + " " + node.place() + " (never ingested, or every delivery ended and it was deleted)");
            }
            out.print(json ? HookView.json(hook.get(), payload) + "\n" : HookView.text(hook.get(), payload));
        }
        return ExitCode.OK.code();
    }
}

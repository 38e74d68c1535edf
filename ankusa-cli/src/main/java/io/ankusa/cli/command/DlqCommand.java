package io.ankusa.cli.command;

import io.ankusa.api.DeadLetter;
import io.ankusa.api.DeadLetterCursor;
import io.ankusa.api.DeadLetterPage;
import io.ankusa.api.DeadLetterQuery;
import io.ankusa.cli.console.Figures;
import io.ankusa.cli.console.Json;
import io.ankusa.cli.console.Table;
import java.io.PrintWriter;
import java.util.List;
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
 * {@code ankusa dlq [--tenant T]… [--limit N] [--after CURSOR]}: one page of dead letters, newest
 * first, with the cursor of the next page. Reads the dead-letter index only, never a hook. Each
 * letter shows its hook's seq and its sink: what {@code ankusa hook} and the one-delivery
 * {@code ankusa replay} take. Over {@code --url}, {@code GET /v1/dead} or each named tenant's
 * {@code GET /v1/tenants/{tenant}/dead}, a call per 1 000 letters.
 */
@Command(name = "dlq", mixinStandardHelpOptions = true,
        header = "List dead letters, newest first, a page at a time.",
        description = {
            "The whole store's, or some tenants' (--tenant). The last line gives the --after cursor of the next page.",
            "A letter's seq and sink are what 'ankusa hook' and 'ankusa replay --seq --sink' take.",
            "With --json, one JSON object on one line: the letters and the next cursor (null on the last page)."})
final class DlqCommand implements Callable<Integer> {

    @ParentCommand
    AnkusaCommand root;

    @Spec
    CommandSpec spec;

    @Mixin
    ApiOptions api;

    @Option(names = "--tenant", paramLabel = "TENANT", description = "Only this tenant's (repeatable).")
    List<String> tenants = List.of();

    @Option(names = "--limit", paramLabel = "N", defaultValue = "50",
            description = "Letters per page, 1..10000 (default: ${DEFAULT-VALUE}).")
    int limit;

    @Option(names = "--after", paramLabel = "CURSOR",
            description = "Continue after this cursor (from the previous page).")
    String after;

    @Option(names = "--json", description = "Print one JSON object instead of the table.")
    boolean json;

    @Override
    public Integer call() {
        Optional<DeadLetterCursor> from = cursor();
        PrintWriter out = spec.commandLine().getOut();
        try (Node node = Node.open(root, api)) {
            for (String tenant : tenants) {
                node.requireTenant(tenant);
            }
            DeadLetterPage page = node.deadLetters(tenants, from, limit);
            if (json) {
                out.println(json(page));
                return ExitCode.OK.code();
            }
            if (page.letters().isEmpty()) {
                out.println("no dead letters");
                return ExitCode.OK.code();
            }
            Table table = Table.columns("dead at", "tenant", "hook", "seq", "sink", "attempts", "last error")
                    .leftAligned(1, 2, 6);
            for (DeadLetter letter : page.letters()) {
                table.row(letter.deadAt().toString(), letter.tenantId(), letter.hookId(),
                        Long.toString(letter.seq()), Integer.toString(letter.sink()),
                        Integer.toString(letter.attempts()), letter.lastError());
            }
            out.print(table.render());
            out.println(Figures.count(page.letters().size()) + " dead letters"
                    + page.next().map(c -> "; next page: --after " + c.token()).orElse("; no more"));
        }
        return ExitCode.OK.code();
    }

    private static String json(DeadLetterPage page) {
        Json json = new Json().beginObject().name("letters").beginArray();
        for (DeadLetter letter : page.letters()) {
            json.beginObject()
                    .member("deadAt", letter.deadAt().toString())
                    .member("tenant", letter.tenantId())
                    .member("hook", letter.hookId())
                    .member("seq", letter.seq())
                    .member("sink", letter.sink())
                    .member("attempts", letter.attempts())
                    .member("lastError", letter.lastError())
                    .endObject();
        }
        return json.endArray().member("next", page.next().map(DeadLetterCursor::token).orElse(null)).endObject().text();
    }

    private Optional<DeadLetterCursor> cursor() {
        if (limit < 1 || limit > DeadLetterQuery.MAX_LIMIT) {
            throw new ParameterException(spec.commandLine(), "limit must be in 1.." + DeadLetterQuery.MAX_LIMIT + ": "
                    + limit);
        }
        try {
            return after == null ? Optional.empty() : Optional.of(DeadLetterCursor.parse(after));
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
    }
}

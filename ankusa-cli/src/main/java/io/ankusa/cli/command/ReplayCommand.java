package io.ankusa.cli.command;

import io.ankusa.api.DeadLetterCursor;
import io.ankusa.api.DeliveryState;
import io.ankusa.cli.console.Figures;
import io.ankusa.cli.console.TerminalText;
import io.ankusa.dispatch.ReplayResult;
import io.ankusa.dispatch.Replayer;
import java.io.PrintWriter;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code ankusa replay}: revives dead letters with the dispatcher's {@link Replayer} (each becomes
 * due now as a first attempt); a pipeline running on the store then delivers them. The replayer
 * records each revival in the audit trail, one entry per tenant.
 *
 * <p>With {@code --seq} and {@code --sink} it replays one (hook, sink) of the tenant
 * ({@link Replayer#replayDelivery}): one the tenant does not hold is {@link ExitCode#UNKNOWN_TENANT}
 * (the not-found code, as for {@code ankusa hook}); one that is not a dead letter is
 * {@link ExitCode#USAGE}: the arguments name something replay cannot act on, and nothing changes.
 *
 * <p>Over {@code --url} the running node's replayer does the same through the admin API:
 * {@code POST /v1/tenants/{tenant}/replay} (with {@code hook}), {@code POST /v1/tenants/{tenant}/hooks/{seq}/replay}
 * and {@code POST /v1/replay/page}; its pipeline delivers them.
 */
@Command(name = "replay", mixinStandardHelpOptions = true,
        header = "Revive dead letters so that they are delivered again.",
        description = {
            "All of a tenant's (--tenant), one hook's (--tenant with --hook), one delivery (--tenant with --seq and "
                    + "--sink,",
            "as dlq lists it), or one page of the store's newest (--all).",
            "They become due at once and go out when a pipeline runs on the store."})
final class ReplayCommand implements Callable<Integer> {

    @ParentCommand
    AnkusaCommand root;

    @Spec
    CommandSpec spec;

    @Mixin
    ApiOptions api;

    @ArgGroup(exclusive = true, multiplicity = "1")
    Scope scope;

    /** Which dead letters. */
    static final class Scope {
        @Option(names = "--tenant", paramLabel = "TENANT", required = true, description = "A tenant's dead letters.")
        String tenant;

        @Option(names = "--all", required = true, description = "One page of the store's dead letters, newest first.")
        boolean all;
    }

    @Option(names = "--hook", paramLabel = "ID", description = "With --tenant: only this hook's dead letters.")
    String hookId;

    @Option(names = "--seq", paramLabel = "N",
            description = "With --tenant and --sink: only the delivery of this hook seq (as dlq shows it).")
    Long seq;

    @Option(names = "--sink", paramLabel = "S",
            description = "With --tenant and --seq: only the delivery to this sink.")
    Integer sink;

    @Option(names = "--limit", paramLabel = "N", defaultValue = "500",
            description = "With --all: dead letters per page (default: ${DEFAULT-VALUE}).")
    int limit;

    @Option(names = "--after", paramLabel = "CURSOR", description = "With --all: continue after this cursor.")
    String after;

    @Override
    public Integer call() {
        checkCombination();
        PrintWriter out = spec.commandLine().getOut();
        try (Node node = Node.open(root, api)) {
            if (scope.all) {
                Node.PageRevival page = node.replayPage(cursor(), limit);
                out.println("revived " + Figures.count(page.revived()) + " dead letters"
                        + (page.skipped() == 0 ? "" : "; skipped " + Figures.count(page.skipped())
                                + " revived or purged meanwhile")
                        + page.next().map(c -> "; next page: --after " + c.token()).orElse("; no more"));
                return ExitCode.OK.code();
            }
            node.requireTenant(scope.tenant);
            if (seq != null) {
                return replayOne(node, out);
            }
            ReplayResult result = node.replay(scope.tenant, Optional.ofNullable(hookId));
            out.println("revived " + Figures.count(result.revived()) + " dead letters of tenant "
                    + TerminalText.escape(scope.tenant)
                    + (hookId == null ? "" : ", hook " + TerminalText.escape(hookId))
                    + (result.skippedNewer() == 0 ? "" : "; skipped " + Figures.count(result.skippedNewer())
                            + " dead-lettered after the replay began")
                    + (result.skippedGone() == 0 ? "" : "; skipped " + Figures.count(result.skippedGone())
                            + " revived or purged meanwhile"));
        }
        return ExitCode.OK.code();
    }

    /** {@code --seq N --sink S}: the one delivery, or why it was not replayed. */
    private int replayOne(Node node, PrintWriter out) {
        String delivery = "hook " + seq + " of tenant '" + scope.tenant + "' to sink " + sink;
        switch (node.replayDelivery(scope.tenant, seq, sink)) {
            case REPLAYED -> {
                out.println("replayed hook " + seq + " of tenant " + TerminalText.escape(scope.tenant) + " to sink "
                        + sink + ": due now as a first attempt");
                return ExitCode.OK.code();
            }
            case NOT_FOUND -> throw new CommandFailure(ExitCode.UNKNOWN_TENANT, "no " + delivery + " " + node.place()
                    + " (never ingested, or every delivery ended and the hook was deleted)");
            default -> {
                String now = node.hook(scope.tenant, seq, false).flatMap(h -> h.delivery(sink))
                        .filter(d -> d.state() != DeliveryState.DEAD)
                        .map(d -> "it is " + d.state().name().toLowerCase(Locale.ROOT))
                        .orElse("revived or purged meanwhile");
                throw new CommandFailure(ExitCode.USAGE, delivery + " is not a dead letter (" + now
                        + "); nothing replayed");
            }
        }
    }

    private void checkCombination() {
        if (seq != null || sink != null) {
            checkOneDelivery();
        }
        if (scope.all && hookId != null) {
            throw new ParameterException(spec.commandLine(), "--hook goes with --tenant, not --all");
        }
        if (!scope.all && after != null) {
            throw new ParameterException(spec.commandLine(), "--after goes with --all");
        }
        if (limit < 1 || limit > 10_000) {
            throw new ParameterException(spec.commandLine(), "--limit must be within 1..10000: " + limit);
        }
    }

    private void checkOneDelivery() {
        if (seq == null || sink == null) {
            throw new ParameterException(spec.commandLine(), "--seq and --sink go together");
        }
        if (scope.all || hookId != null) {
            throw new ParameterException(spec.commandLine(), "--seq and --sink go with --tenant alone, not with "
                    + (scope.all ? "--all" : "--hook"));
        }
        if (seq < 1) {
            throw new ParameterException(spec.commandLine(), "--seq must be 1 or more: " + seq);
        }
        if (sink < 0 || sink > 0xFFFF) {
            throw new ParameterException(spec.commandLine(), "--sink must be within 0..65535: " + sink);
        }
    }

    private Optional<DeadLetterCursor> cursor() {
        if (after == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(DeadLetterCursor.parse(after));
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
    }
}

package io.ankusa.cli.command;

import io.ankusa.api.DeadLetterCursor;
import io.ankusa.cli.console.Figures;
import io.ankusa.cli.console.TerminalText;
import io.ankusa.dispatch.ReplayPage;
import io.ankusa.dispatch.ReplayResult;
import io.ankusa.dispatch.Replayer;
import io.ankusa.queue.Queue;
import io.ankusa.queue.ledger.LedgerSource;
import io.ankusa.queue.ledger.TenantDirectory;
import java.io.PrintWriter;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code ankusa replay}: revives dead letters with the dispatcher's {@link Replayer} (each becomes
 * due now as a first attempt); a pipeline running on the store then delivers them. The replayer
 * records each revival in the audit trail, one entry per tenant.
 */
@Command(name = "replay", mixinStandardHelpOptions = true,
        header = "Revive dead letters so that they are delivered again.",
        description = {
            "All of a tenant's (--tenant), one hook's (--tenant with --hook), or one page of the store's newest "
                    + "(--all).",
            "They become due at once and go out when a pipeline runs on the store."})
final class ReplayCommand implements Callable<Integer> {

    @ParentCommand
    AnkusaCommand root;

    @Spec
    CommandSpec spec;

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

    @Option(names = "--limit", paramLabel = "N", defaultValue = "500",
            description = "With --all: dead letters per page (default: ${DEFAULT-VALUE}).")
    int limit;

    @Option(names = "--after", paramLabel = "CURSOR", description = "With --all: continue after this cursor.")
    String after;

    @Override
    public Integer call() {
        checkCombination();
        PrintWriter out = spec.commandLine().getOut();
        try (Queue queue = StoreAccess.openQueue(root)) {
            Replayer replayer = Replayer.of(queue);
            if (scope.all) {
                Optional<DeadLetterCursor> from = cursor();
                ReplayPage page = from.isEmpty() ? replayer.replayPage(limit) : replayer.replayPage(from.get(), limit);
                out.println("revived " + Figures.count(page.revived()) + " dead letters"
                        + (page.skipped() == 0 ? "" : "; skipped " + Figures.count(page.skipped())
                                + " revived or purged meanwhile")
                        + page.next().map(c -> "; next page: --after " + c.token()).orElse("; no more"));
                return ExitCode.OK.code();
            }
            if (LedgerSource.of(queue).tenantDirectory().ord(scope.tenant).isEmpty()) {
                throw new CommandFailure(ExitCode.UNKNOWN_TENANT, "unknown tenant '" + scope.tenant + "' in "
                        + root.store());
            }
            ReplayResult result = hookId == null ? replayer.replayTenant(scope.tenant)
                    : replayer.replayHook(scope.tenant, hookId);
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

    private void checkCombination() {
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

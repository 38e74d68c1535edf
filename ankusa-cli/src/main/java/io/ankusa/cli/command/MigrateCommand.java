package io.ankusa.cli.command;

import io.ankusa.cli.console.Figures;
import io.ankusa.queue.StoreUpgrade;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * {@code ankusa migrate [--dry-run]}: brings an older store to this release's format with
 * {@link StoreUpgrade}, or lists what that would run. Forward only: the command says to take a
 * checkpoint first, and the read commands refuse an older store until it is migrated.
 */
@Command(name = "migrate", mixinStandardHelpOptions = true,
        header = "Upgrade the store to this release's format.",
        description = {
            "Resumes an interrupted upgrade.",
            "Forward only: take a backup first ('ankusa checkpoint DIR' on the stopped store)."})
final class MigrateCommand implements Callable<Integer> {

    @ParentCommand
    AnkusaCommand root;

    @Option(names = "--dry-run", description = "List the pending migrations and change nothing.")
    boolean dryRun;

    @Override
    public Integer call() {
        StoreAccess.requireStore(root);
        PrintWriter out = root.spec.commandLine().getOut();
        PrintWriter err = root.spec.commandLine().getErr();
        List<StoreUpgrade.Step> pending = StoreUpgrade.dryRun(root.queueConfig());
        if (pending.isEmpty()) {
            out.println("store " + root.store() + " is at the current format; nothing to migrate");
            return ExitCode.OK.code();
        }
        if (dryRun) {
            out.println("pending migrations of " + root.store() + ":");
            pending.forEach(step ->
                    out.println("  " + step + (step.resuming() ? " (resumes an interrupted run)" : "")));
            return ExitCode.OK.code();
        }
        long[] rows = new long[1];
        StoreUpgrade.run(root.queueConfig(), progress -> {
            rows[0] = progress.rows();
            err.println(String.format(Locale.ROOT, "migrate %d -> %d: %s rows, %s steps, at %s, %s rows/s",
                    progress.from(), progress.to(), Figures.count(progress.rows()), Figures.count(progress.steps()),
                    progress.position(), Figures.count(Math.round(progress.rowsPerSecond()))));
            err.flush();
        });
        pending.forEach(step -> out.println("migrated " + step));
        out.println("store " + root.store() + " is at the current format (" + Figures.count(rows[0])
                + " rows migrated)");
        return ExitCode.OK.code();
    }
}

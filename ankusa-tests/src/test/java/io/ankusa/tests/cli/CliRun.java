package io.ankusa.tests.cli;

import io.ankusa.cli.command.AnkusaCommand;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * One in-process run of the {@code ankusa} command line against a store: its exit code and what it
 * printed on standard output and standard error.
 */
record CliRun(int exit, String out, String err) {

    /** Runs {@code args} followed by {@code --store <dir> --backend <backend>}. */
    static CliRun against(Path dir, String backend, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        String[] all = Arrays.copyOf(args, args.length + 4);
        all[args.length] = "--store";
        all[args.length + 1] = dir.toString();
        all[args.length + 2] = "--backend";
        all[args.length + 3] = backend;
        int exit = AnkusaCommand.execute(new PrintWriter(out, true), new PrintWriter(err, true), all);
        return new CliRun(exit, out.toString(), err.toString());
    }
}

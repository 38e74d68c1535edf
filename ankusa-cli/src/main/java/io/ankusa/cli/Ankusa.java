package io.ankusa.cli;

import io.ankusa.cli.command.AnkusaCommand;
import java.io.PrintWriter;

/**
 * The {@code ankusa} command's entry point: parses the arguments, runs one command and exits with
 * its {@linkplain io.ankusa.cli.command.ExitCode exit code}.
 */
public final class Ankusa {

    private Ankusa() {
    }

    /** Runs the command line and exits with its code. */
    public static void main(String[] args) {
        PrintWriter out = new PrintWriter(System.out, true);
        PrintWriter err = new PrintWriter(System.err, true);
        int code = AnkusaCommand.execute(out, err, args);
        out.flush();
        err.flush();
        System.exit(code);
    }
}

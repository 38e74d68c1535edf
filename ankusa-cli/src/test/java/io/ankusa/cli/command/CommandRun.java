package io.ankusa.cli.command;

import java.io.PrintWriter;
import java.io.StringWriter;

/** One in-process run of the command line: its exit code, stdout and stderr. */
record CommandRun(int exitCode, String out, String err) {

    static CommandRun of(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = AnkusaCommand.execute(new PrintWriter(out, true), new PrintWriter(err, true), args);
        return new CommandRun(code, out.toString(), err.toString());
    }

    /** The lines of stderr. */
    String[] errLines() {
        return err.isEmpty() ? new String[0] : err.split("\n");
    }
}

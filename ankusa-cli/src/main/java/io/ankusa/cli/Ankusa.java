package io.ankusa.cli;

import io.ankusa.cli.command.AnkusaCommand;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.Charset;

/**
 * The {@code ankusa} command's entry point: parses the arguments, runs one command and exits with
 * its {@linkplain io.ankusa.cli.command.ExitCode exit code}.
 */
public final class Ankusa {

    private Ankusa() {
    }

    /** Runs the command line and exits with its code. */
    public static void main(String[] args) {
        // The platform's charset is the terminal's; named here so that the choice is visible
        // (JDK 17 has no PrintStream.charset()).
        Charset charset = Charset.defaultCharset();
        PrintWriter out = new PrintWriter(new OutputStreamWriter(System.out, charset), true);
        PrintWriter err = new PrintWriter(new OutputStreamWriter(System.err, charset), true);
        int code = AnkusaCommand.execute(out, err, args);
        out.flush();
        err.flush();
        System.exit(code);
    }
}

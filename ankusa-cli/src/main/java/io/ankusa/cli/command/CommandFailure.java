package io.ankusa.cli.command;

import java.util.Objects;

/**
 * A command ends with a failure the user can act on: a one-line message for stderr and the exit
 * code that says which kind it is.
 */
final class CommandFailure extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final ExitCode exitCode;

    CommandFailure(ExitCode exitCode, String message) {
        this(exitCode, message, null);
    }

    CommandFailure(ExitCode exitCode, String message, Throwable cause) {
        super(Objects.requireNonNull(message, "message"), cause);
        this.exitCode = Objects.requireNonNull(exitCode, "exitCode");
    }

    ExitCode exitCode() {
        return exitCode;
    }
}

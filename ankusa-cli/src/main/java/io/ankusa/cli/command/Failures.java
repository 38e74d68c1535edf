package io.ankusa.cli.command;

import io.ankusa.api.AnkusaException;
import io.ankusa.api.StoreFormatNewerException;
import io.ankusa.store.StoreException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/**
 * Turns what a command threw into a {@link CommandFailure}: the store's and the queue's refusals
 * become their own exit codes with the library's message; anything else is a {@link ExitCode#FAILURE}.
 */
final class Failures {

    private Failures() {
    }

    static CommandFailure translate(Throwable thrown) {
        Throwable t = unwrap(thrown);
        if (t instanceof CommandFailure failure) {
            return failure;
        }
        if (t instanceof StoreFormatNewerException newer) {
            return new CommandFailure(ExitCode.STORE_NEWER, newer.getMessage()
                    + "; use a release that reads format " + newer.found(), t);
        }
        if (t instanceof StoreException store) {
            return switch (store.reason()) {
                case NOT_FOUND -> new CommandFailure(ExitCode.NO_STORE, store.getMessage(), t);
                case LOCKED -> new CommandFailure(ExitCode.STORE_LOCKED, store.getMessage()
                        + " (stop it, or work on a checkpoint)", t);
                case BACKEND_MISMATCH -> new CommandFailure(ExitCode.BACKEND_MISMATCH, store.getMessage()
                        + " (pass --backend)", t);
                case FAMILY_MISMATCH -> new CommandFailure(ExitCode.STORE_NEWER, store.getMessage(), t);
                case CORRUPTION -> new CommandFailure(ExitCode.STORE_CORRUPT, store.getMessage(), t);
                default -> new CommandFailure(ExitCode.FAILURE, store.getMessage(), t);
            };
        }
        if (t instanceof AnkusaException ankusa) {
            return new CommandFailure(ExitCode.FAILURE, ankusa.getMessage() + " [" + ankusa.error() + "]", t);
        }
        String message = t.getMessage() == null ? t.getClass().getName()
                : t.getClass().getSimpleName() + ": " + t.getMessage();
        return new CommandFailure(ExitCode.FAILURE, "unexpected failure: " + message, t);
    }

    private static Throwable unwrap(Throwable t) {
        Throwable current = t;
        while ((current instanceof CompletionException || current instanceof ExecutionException)
                && current.getCause() != null) {
            current = current.getCause();
        }
        return current;
    }
}

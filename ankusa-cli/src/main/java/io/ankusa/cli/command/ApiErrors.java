package io.ankusa.cli.command;

import java.net.URI;

/**
 * The admin API's typed errors ({@code {"error": code, "message": text}}, docs/admin.md) as the exit
 * codes the same refusals have against a store: {@code not_found} is {@link ExitCode#UNKNOWN_TENANT}
 * (as for an unknown tenant, hook or delivery), {@code not_dead} and the other refusals of an argument
 * {@link ExitCode#USAGE}, {@code unauthenticated}, {@code forbidden} and {@code csrf}
 * {@link ExitCode#UNAUTHORIZED}; the endpoint registry's reasons as {@link RegistryCommands#refusal} maps
 * them against a store; anything else {@link ExitCode#FAILURE}.
 */
final class ApiErrors {

    private ApiErrors() {
    }

    static CommandFailure failure(int status, String code, String message, URI base) {
        String text = message + " [" + (code.isEmpty() ? "HTTP " + status : code) + "]";
        if (RegistryCommands.registryReason(code)) {
            return RegistryCommands.refusal(code, message);
        }
        return switch (code) {
            case "not_found" -> new CommandFailure(ExitCode.UNKNOWN_TENANT, text);
            case "not_dead", "bad_request", "confirmation_required" -> new CommandFailure(ExitCode.USAGE, text);
            case "unauthenticated" -> new CommandFailure(ExitCode.UNAUTHORIZED, "the admin API at " + base
                    + " refused the token: " + text + " (pass --token-file FILE or set ANKUSA_TOKEN)");
            case "forbidden", "csrf", "payload_forbidden" -> new CommandFailure(ExitCode.UNAUTHORIZED,
                    "the admin API at " + base + " does not allow this: " + text);
            default -> status == 401 || status == 403
                    ? new CommandFailure(ExitCode.UNAUTHORIZED, "the admin API at " + base + " refused: " + text)
                    : new CommandFailure(ExitCode.FAILURE, "the admin API at " + base + " failed: " + text);
        };
    }
}

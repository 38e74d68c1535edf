package io.ankusa.cli.command;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The bearer token the CLI sends over {@code --url}: the first line of {@code --token-file FILE}, else
 * the environment variable {@value #ENV}. There is no option that takes the token itself, since a
 * command line is visible to every user of the machine ({@code ps}) and kept in shell histories.
 */
final class Tokens {

    /** The environment variable that holds the token when no {@code --token-file} is given. */
    static final String ENV = "ANKUSA_TOKEN";

    private Tokens() {
    }

    static String clientToken(ApiOptions options) {
        Optional<Path> file = options.tokenFile();
        if (file.isPresent()) {
            return read(file.get());
        }
        String env = System.getenv(ENV);
        if (env == null || env.isBlank()) {
            throw new CommandFailure(ExitCode.UNAUTHORIZED, "--url needs a token: pass --token-file FILE or set "
                    + ENV);
        }
        return env.strip();
    }

    /** The token in {@code file}: its first line, without surrounding white space. */
    static String read(Path file) {
        try {
            String text = Files.readString(file, StandardCharsets.UTF_8).lines().findFirst().orElse("").strip();
            if (text.isEmpty()) {
                throw new CommandFailure(ExitCode.UNAUTHORIZED, "the token file " + file + " is empty");
            }
            return text;
        } catch (IOException e) {
            throw new CommandFailure(ExitCode.FAILURE, "cannot read the token file " + file + ": " + e.getMessage(), e);
        }
    }
}

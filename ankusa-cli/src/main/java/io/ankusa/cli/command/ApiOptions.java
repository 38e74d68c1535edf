package io.ankusa.cli.command;

import java.net.URI;
import java.nio.file.Path;
import java.util.Optional;
import picocli.CommandLine.Option;

/**
 * {@code --url URL} and {@code --token-file FILE}, mixed into every command that can work over a
 * running node's admin API instead of a store: with {@code --url} the command opens no store.
 */
final class ApiOptions {

    @Option(names = "--url", paramLabel = "URL",
            description = "Talk to a running node's admin API at URL (e.g. http://127.0.0.1:8720/) instead of "
                    + "opening --store.")
    URI url;

    @Option(names = "--token-file", paramLabel = "FILE",
            description = "With --url: the bearer token, the first line of FILE (default: $ANKUSA_TOKEN).")
    Path tokenFile;

    /** The admin API to talk to instead of a store. */
    Optional<URI> url() {
        return Optional.ofNullable(url);
    }

    /** The file holding the admin API's token. */
    Optional<Path> tokenFile() {
        return Optional.ofNullable(tokenFile);
    }
}

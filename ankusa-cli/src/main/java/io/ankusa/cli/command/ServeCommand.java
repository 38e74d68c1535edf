package io.ankusa.cli.command;

import io.ankusa.queue.Queue;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * {@code ankusa serve}: opens the store at {@code --store} and serves its admin API on a port of its
 * own until Ctrl-C. The CLI has no endpoint configuration, so it runs no pipeline: the API reads the
 * store and its mutations change it (a replayed delivery goes out when a node with a pipeline opens
 * the store).
 */
@Command(name = "serve", mixinStandardHelpOptions = true,
        header = "Serve a store's dashboard and admin API on a port of its own.",
        description = {
            "Opens --store (holding it, as a running service does) and serves, until Ctrl-C, the dashboard at",
            "http://HOST:PORT/ (docs/dashboard.md) and the admin API (docs/admin.md) at",
            "http://HOST:PORT/v1/ with one operator token: the one in --token-file, or a random one written to",
            "admin-token in the store's directory (owner-only). No dispatch: the CLI configures no endpoints.",
            "Other commands reach it with --url http://HOST:PORT/ --token-file FILE."})
final class ServeCommand implements Callable<Integer> {

    /** The port {@code serve} listens on unless {@code --port} says otherwise. */
    static final int DEFAULT_PORT = 8720;

    @ParentCommand
    AnkusaCommand root;

    @Option(names = "--host", paramLabel = "ADDRESS", defaultValue = "127.0.0.1",
            description = "The address to listen on (default: ${DEFAULT-VALUE}); one that is not loopback needs "
                    + "--allow-non-loopback.")
    String host;

    @Option(names = "--port", paramLabel = "PORT", defaultValue = "" + DEFAULT_PORT,
            description = "The port (default: ${DEFAULT-VALUE}; 0 picks a free one).")
    int port;

    @Option(names = "--allow-non-loopback",
            description = "Let --host name an address reachable from other machines (plain HTTP: put TLS in front).")
    boolean allowNonLoopback;

    @Option(names = "--token-file", paramLabel = "FILE",
            description = "The operator token to accept, the first line of FILE (default: a new random one).")
    Path tokenFile;

    @Option(names = "--ingest-token-file", paramLabel = "FILE",
            description = "Turns on the ingest edge, POST /v1/hooks, for producers with the token on the first line "
                    + "of FILE (any tenant; docs/ingest-edge.md). Off without it.")
    Path ingestTokenFile;

    @Override
    public Integer call() {
        Queue queue = StoreAccess.openQueue(root);
        AdminServing.serveUntilShutdown(queue, root.store().toAbsolutePath().normalize(),
                new AdminServing.Listen(host, port, allowNonLoopback, Optional.ofNullable(tokenFile),
                        Optional.ofNullable(ingestTokenFile)),
                root.backend() + ", no dispatch", root.spec.commandLine().getOut());
        return ExitCode.OK.code();
    }
}

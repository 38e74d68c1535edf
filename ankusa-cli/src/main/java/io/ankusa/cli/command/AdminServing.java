package io.ankusa.cli.command;

import io.ankusa.admin.AccessPolicy;
import io.ankusa.admin.AdminServer;
import io.ankusa.admin.HookIngestServlet;
import io.ankusa.admin.IngestTokens;
import io.ankusa.admin.NonLoopbackBindException;
import io.ankusa.admin.Role;
import io.ankusa.queue.Queue;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;

/**
 * Serves a queue's admin API on its own port ({@link AdminServer}) until the JVM is told to stop
 * (Ctrl-C, {@code SIGTERM}): a shutdown hook closes the server and then the queue, so the store is
 * closed cleanly. One operator token: the one in {@code --token-file}, or a random one written with
 * owner-only permissions to {@value #TOKEN_FILE} in the store's directory.
 */
final class AdminServing {

    /** The file a generated token is written to, in the store's directory. */
    static final String TOKEN_FILE = "admin-token";

    private static final SecureRandom RANDOM = new SecureRandom();

    /**
     * Where and how to listen.
     *
     * @param ingestTokenFile the producer token of the ingest edge ({@code POST /v1/hooks}); empty: no edge
     */
    record Listen(String host, int port, boolean allowNonLoopback, Optional<Path> tokenFile,
            Optional<Path> ingestTokenFile) {
    }

    private AdminServing() {
    }

    /**
     * Serves {@code queue} until shutdown, printing the URL and the token's file to {@code out}.
     * Closes the queue when it stops (and when the server does not start).
     */
    static void serveUntilShutdown(Queue queue, Path store, Listen listen, String what, PrintWriter out) {
        AdminServer server;
        Path tokenFile;
        boolean started = false;
        try {
            tokenFile = listen.tokenFile().orElseGet(() -> writeToken(store.resolve(TOKEN_FILE)));
            String token = Tokens.read(tokenFile);
            AdminServer.Builder builder = AdminServer.builder(queue)
                    .accessPolicy(AccessPolicy.tokens(Map.of(token, Role.OPERATOR)))
                    .host(listen.host()).port(listen.port()).allowNonLoopback(listen.allowNonLoopback());
            if (listen.ingestTokenFile().isPresent()) {
                IngestTokens producers = IngestTokens.builder().anyTenant(Tokens.read(listen.ingestTokenFile().get()))
                        .build();
                builder.hookIngest(HookIngestServlet.builder(queue).tokens(producers).build());
            }
            server = builder.build().start();
            started = true;
        } catch (NonLoopbackBindException e) {
            throw new CommandFailure(ExitCode.USAGE, e.getMessage() + " (pass --allow-non-loopback to bind it)", e);
        } finally {
            if (!started) {
                queue.close();
            }
        }
        AdminServer serving = server;
        CountDownLatch stopped = new CountDownLatch(1);
        Thread hook = new Thread(() -> {
            try {
                serving.close();
            } finally {
                queue.close();
                stopped.countDown();
            }
        }, "ankusa-serve-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        String host = listen.host().contains(":") ? "[" + listen.host() + "]" : listen.host();
        out.println("serving the admin API of " + TerminalTextOf.path(store) + " (" + what + ") at http://" + host + ":"
                + serving.port() + "/v1/");
        out.println("token: " + TerminalTextOf.path(tokenFile.toAbsolutePath().normalize())
                + " (send it as 'Authorization: Bearer <token>', or pass --token-file to the commands with --url)");
        out.println("dashboard: http://" + host + ":" + serving.port() + "/ (sign in with the token)");
        if (listen.ingestTokenFile().isPresent()) {
            out.println("ingest edge: POST http://" + host + ":" + serving.port() + "/v1/hooks with the producer token"
                    + " of " + TerminalTextOf.path(listen.ingestTokenFile().get().toAbsolutePath().normalize()));
        }
        out.println("Ctrl-C stops it and closes the store");
        out.flush();
        try {
            stopped.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** A random token (32 bytes, base64url) in a new file only its owner can read. */
    static Path writeToken(Path file) {
        byte[] secret = new byte[32];
        RANDOM.nextBytes(secret);
        String token = Base64.getUrlEncoder().withoutPadding().encodeToString(secret);
        try {
            Files.deleteIfExists(file);
            try {
                Files.createFile(file,
                        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            } catch (UnsupportedOperationException notPosix) {
                Files.createFile(file);
            }
            Files.writeString(file, token + System.lineSeparator(), StandardCharsets.UTF_8,
                    StandardOpenOption.TRUNCATE_EXISTING);
            return file;
        } catch (FileAlreadyExistsException e) {
            throw new CommandFailure(ExitCode.TARGET_EXISTS, "the token file " + file + " appeared meanwhile", e);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the token file " + file, e);
        }
    }

    /** Paths print escaped, as every other untrusted text does. */
    private static final class TerminalTextOf {
        static String path(Path path) {
            return io.ankusa.cli.console.TerminalText.escape(path.toString());
        }
    }
}

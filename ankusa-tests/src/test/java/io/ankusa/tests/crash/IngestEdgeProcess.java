package io.ankusa.tests.crash;

import io.ankusa.admin.AccessPolicy;
import io.ankusa.admin.AdminServer;
import io.ankusa.admin.HookIngestServlet;
import io.ankusa.admin.IngestTokens;
import io.ankusa.admin.Role;
import io.ankusa.api.QueueConfig;
import io.ankusa.queue.Queue;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/**
 * The program the edge's kill -9 test kills: a child JVM that opens a queue over a store and serves
 * the HTTP ingest edge beside the admin API on 127.0.0.1, port 0. It prints {@code port <n>} once
 * serving and never exits by itself while its parent lives; when stdin closes (the parent died) it
 * halts.
 *
 * <p>Arguments: {@code <backend> <directory>}.
 */
public final class IngestEdgeProcess {

    /** The producers' token. */
    static final String TOKEN = "edge-crash-token-0123456789";

    private IngestEdgeProcess() {
    }

    /** Serves until killed; see the class comment. */
    public static void main(String[] args) throws IOException {
        Queue queue = Queue.open(QueueConfig.builder(Path.of(args[1])).backend(args[0])
                .housekeepingInterval(Duration.ZERO).build());
        AdminServer server = AdminServer.builder(queue)
                .accessPolicy(AccessPolicy.tokens(Map.of("edge-crash-operator-0123456789", Role.OPERATOR)))
                .hookIngest(HookIngestServlet.builder(queue).tokens(IngestTokens.builder().anyTenant(TOKEN).build())
                        .build())
                .port(0).build().start();
        System.out.println("port " + server.port());
        System.out.flush();
        InputStream in = System.in;
        while (in.read() >= 0) {
            // the parent sends nothing; end of input means it is gone
        }
        Runtime.getRuntime().halt(3);
    }
}

package io.ankusa.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.admin.AccessPolicy;
import io.ankusa.admin.AdminServer;
import io.ankusa.admin.Role;
import io.ankusa.api.QueueConfig;
import io.ankusa.queue.Queue;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The commands that take {@code --url}, run against a store and then, on the same data, against an
 * {@link AdminServer} on 127.0.0.1 over that store: the output (text and {@code --json}) and the exit
 * codes are the same; only the line naming the store says where the node is.
 */
class LiveNodeCommandTest {

    private static final String OPERATOR_TOKEN = "operator-token-0123456789";
    private static final String VIEWER_TOKEN = "viewer-token-0123456789";

    @TempDir
    Path dir;

    /** Tenants a, b (two hooks), c and one whose id needs percent-encoding; b's sink 1 disabled by an operator. */
    private Path store(String backend, String name) {
        Path store = TenantStores.storeWith(dir.resolve(name), backend, "a", "b", "b", "c", "team/x y%");
        try (Queue queue = Queue.open(config(store, backend))) {
            queue.disableEndpoint("b", 1);
        }
        return store;
    }

    private static QueueConfig config(Path store, String backend) {
        return QueueConfig.builder(store).backend(backend).build();
    }

    private Path tokenFile(String token) {
        try {
            Path file = Files.createTempFile(dir, "token", ".txt");
            Files.writeString(file, token + "\n");
            return file;
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static String[] concat(String[] command, String... more) {
        List<String> args = new ArrayList<>(List.of(command));
        args.addAll(List.of(more));
        return args.toArray(String[]::new);
    }

    /** {@code command} against the store, then with {@code --url} against a live node over it. */
    private record Both(CommandRun store, CommandRun url) {
    }

    private Both both(String backend, Path store, String token, String... command) {
        CommandRun byStore = CommandRun.of(concat(command, "--store", store.toString(), "--backend", backend));
        return new Both(byStore, overUrl(backend, store, token, command));
    }

    private CommandRun overUrl(String backend, Path store, String token, String... command) {
        Path tokens = tokenFile(token);
        try (Queue queue = Queue.open(config(store, backend));
                AdminServer server = AdminServer.builder(queue)
                        .accessPolicy(AccessPolicy.tokens(Map.of(OPERATOR_TOKEN, Role.OPERATOR, VIEWER_TOKEN,
                                Role.VIEWER)))
                        .build().start()) {
            return CommandRun.of(concat(command, "--url", "http://127.0.0.1:" + server.port() + "/", "--token-file",
                    tokens.toString()));
        }
    }

    /**
     * Without where the node is (the store row and the JSON's store and backend, which say how it was
     * reached) and the oldest due age, which grows between the two runs.
     */
    private static String located(String out) {
        return out.replaceAll("(?m)^store {2,}\\S+ \\([^)]*\\)$", "store  <node>")
                .replaceAll("\"store\":\"[^\"]*\",\"backend\":\"[^\"]*\"", "\"store\":\"<node>\"")
                .replaceAll("(?m)^oldest due {2,}.+ ago$", "oldest due  <age>")
                .replaceAll("\"oldestDueMillis\":\\d+", "\"oldestDueMillis\":<age>");
    }

    private static void assertSame(Both both, Function<String, String> normalise) {
        assertThat(both.url().exitCode()).as(both.url().err()).isEqualTo(both.store().exitCode());
        assertThat(both.store().exitCode()).as(both.store().err()).isZero();
        assertThat(normalise.apply(both.url().out())).isEqualTo(normalise.apply(both.store().out())).isNotBlank();
    }

    @DisplayName("the CLI reads a live node over its admin API")
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"rocksdb", "lmdb"})
    void theCliReadsALiveNodeOverItsAdminApi(String backend) {
        Path store = store(backend, "stats");

        Both text = both(backend, store, OPERATOR_TOKEN, "stats");
        Both json = both(backend, store, OPERATOR_TOKEN, "stats", "--json");

        assertSame(text, LiveNodeCommandTest::located);
        assertSame(json, LiveNodeCommandTest::located);
        assertThat(text.url().out()).containsPattern("(?m)^store {2,}http://127\\.0\\.0\\.1:\\d+/ \\(admin-api\\)$")
                .containsPattern("(?m)^tenants {2,}4$").containsPattern("(?m)^pending {2,}10$")
                .containsPattern("(?m)^oldest due {2,}.+ ago$");
        assertThat(json.url().out()).contains("\"backend\":\"admin-api\"", "\"tenants\":4", "\"pending\":10")
                .containsPattern("\"oldestDueMillis\":\\d+");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"rocksdb", "lmdb"})
    void statsOfATenantIsTheSameOverTheUrlSaveTheOrdinal(String backend) {
        Path store = store(backend, "tenant");

        Both text = both(backend, store, OPERATOR_TOKEN, "stats", "--tenant", "team/x y%");
        Both json = both(backend, store, OPERATOR_TOKEN, "stats", "--tenant", "team/x y%", "--json");

        // The admin API shows no ordinal (an internal of the store): the tenant row leaves it out.
        assertSame(text, out -> out.replaceAll(" \\(ordinal \\d+\\)", ""));
        assertThat(text.store().out()).contains("(ordinal ");
        assertThat(text.url().out()).doesNotContain("ordinal").contains("team/x y%");
        assertSame(json, Function.identity());
        assertThat(json.url().out()).contains("\"tenant\":\"team/x y%\",\"pending\":2");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"rocksdb", "lmdb"})
    void endpointsListIsTheSameOverTheUrl(String backend) {
        Path store = store(backend, "endpoints");

        assertSame(both(backend, store, OPERATOR_TOKEN, "endpoints", "list"), Function.identity());
        assertSame(both(backend, store, OPERATOR_TOKEN, "endpoints", "list", "--json"), Function.identity());
        assertSame(both(backend, store, OPERATOR_TOKEN, "endpoints", "list", "--tenant", "b", "--json"),
                Function.identity());
        Both empty = both(backend, store, OPERATOR_TOKEN, "endpoints", "list", "--tenant", "a");
        assertSame(empty, Function.identity());
        assertThat(empty.url().out()).contains("every endpoint is active and none is failing");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"rocksdb", "lmdb", "rocksdb:--json", "lmdb:--json"})
    void endpointsEnableAndDisableAreTheSameOverTheUrl(String variant) {
        String backend = variant.split(":")[0];
        String[] json = variant.contains(":") ? new String[] {"--json"} : new String[0];
        Path byStore = store(backend, "by-store");
        Path byUrl = store(backend, "by-url");
        // Each mutation runs once per store, so the times it stamps differ: compare without them.
        Function<String, String> timeless = out -> out.replaceAll("\\d{4}-\\d\\d-\\d\\dT[0-9:.]+Z", "<time>");

        for (String[] command : List.of(new String[] {"endpoints", "enable", "--tenant", "b", "--sink", "1"},
                new String[] {"endpoints", "disable", "--tenant", "c", "--sink", "0"})) {
            String[] args = concat(command, json);
            CommandRun store = CommandRun.of(concat(args, "--store", byStore.toString(), "--backend", backend));
            CommandRun url = overUrl(backend, byUrl, OPERATOR_TOKEN, args);
            assertSame(new Both(store, url), timeless);
        }
        assertSame(both(backend, byUrl, OPERATOR_TOKEN, "endpoints", "list"), timeless);
        try (Queue queue = Queue.open(config(byUrl, backend))) {
            assertThat(queue.endpoints(10)).singleElement().satisfies(e -> {
                assertThat(e.tenant()).isEqualTo("c");
                assertThat(e.sink()).isZero();
            });
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"rocksdb", "lmdb"})
    void anUnknownTenantIsTheSameExitCodeOverTheUrl(String backend) {
        Path store = store(backend, "unknown");

        for (String[] command : List.of(new String[] {"stats", "--tenant", "nobody"},
                new String[] {"endpoints", "list", "--tenant", "nobody"},
                new String[] {"endpoints", "enable", "--tenant", "nobody", "--sink", "0"})) {
            Both run = both(backend, store, OPERATOR_TOKEN, command);
            assertThat(run.store().exitCode()).isEqualTo(ExitCode.UNKNOWN_TENANT.code());
            assertThat(run.url().exitCode()).as(run.url().err()).isEqualTo(ExitCode.UNKNOWN_TENANT.code());
            assertThat(run.url().err()).startsWith("ankusa: unknown tenant 'nobody' at http://127.0.0.1:");
            assertThat(run.url().out()).isEmpty();
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"rocksdb", "lmdb"})
    void aBadTokenIsTheAuthExitCode(String backend) {
        Path store = store(backend, "token");

        CommandRun wrong = overUrl(backend, store, "not-the-token-of-this-node", "stats");
        CommandRun viewer = overUrl(backend, store, VIEWER_TOKEN, "endpoints", "enable", "--tenant", "b", "--sink",
                "1");

        assertThat(wrong.exitCode()).isEqualTo(ExitCode.UNAUTHORIZED.code());
        assertThat(wrong.err()).contains("refused the token").contains("[unauthenticated]");
        assertThat(wrong.out()).isEmpty();
        assertThat(viewer.exitCode()).isEqualTo(ExitCode.UNAUTHORIZED.code());
        assertThat(viewer.err()).contains("does not allow this").contains("[forbidden]");
        try (Queue queue = Queue.open(config(store, backend))) {
            assertThat(queue.endpoints("b", 10)).hasSize(1);
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"rocksdb", "lmdb"})
    void aNodeThatDoesNotAnswerIsTheUnreachableExitCode(String backend) {
        Path store = store(backend, "gone");
        int port;
        try (Queue queue = Queue.open(config(store, backend));
                AdminServer server = AdminServer.builder(queue)
                        .accessPolicy(AccessPolicy.tokens(Map.of(OPERATOR_TOKEN, Role.OPERATOR))).build().start()) {
            port = server.port();
        }

        CommandRun run = CommandRun.of("stats", "--url", "http://127.0.0.1:" + port + "/", "--token-file",
                tokenFile(OPERATOR_TOKEN).toString());

        assertThat(run.exitCode()).isEqualTo(ExitCode.UNREACHABLE.code());
        assertThat(run.err()).startsWith("ankusa: no answer from the admin API at http://127.0.0.1:" + port + "/");
    }
}

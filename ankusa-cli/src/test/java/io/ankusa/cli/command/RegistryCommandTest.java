package io.ankusa.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.admin.AccessPolicy;
import io.ankusa.admin.AdminServer;
import io.ankusa.api.AuditAction;
import io.ankusa.api.AuditEntry;
import io.ankusa.api.QueueConfig;
import io.ankusa.api.RegisteredEndpoint;
import io.ankusa.admin.Role;
import io.ankusa.queue.Queue;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code ankusa endpoints add|update|rotate|remove} against a store and, on a copy of the same data,
 * with {@code --url} against an {@link AdminServer} on 127.0.0.1: the same output (save the generated
 * secrets and the time a rotated secret ends), the same exit codes for the registry's refusals, and
 * every change audited with the CLI's or the token's principal.
 */
class RegistryCommandTest {

    private static final String OPERATOR_TOKEN = "operator-token-0123456789";

    private static final String[][] CHANGES = {
        {"endpoints", "add", "--tenant", "a", "--id", "billing", "--endpoint-url", "https://hooks.example.com/in",
            "--event-type", "invoice.*", "--event-type", "user.created", "--rate-limit", "50", "--header",
            "X-Team=billing", "--metadata", "owner=ops", "--description", "billing"},
        {"endpoints", "update", "--tenant", "a", "--id", "billing", "--endpoint-url", "https://hooks.example.com/v2"},
        {"endpoints", "rotate", "--tenant", "a", "--id", "billing", "--overlap", "PT10M"},
        {"endpoints", "remove", "--tenant", "a", "--id", "billing"},
    };

    private static final String[][] REFUSED = {
        {"endpoints", "add", "--tenant", "a", "--id", "x", "--endpoint-url", "http://127.0.0.1/"},
        {"endpoints", "add", "--tenant", "a", "--id", "x", "--endpoint-url", "ftp://x.example/"},
        {"endpoints", "add", "--tenant", "a", "--id", "x", "--endpoint-url", "https://x.example/", "--event-type",
            "a..b"},
        {"endpoints", "remove", "--tenant", "a", "--id", "nope"},
        {"endpoints", "rotate", "--tenant", "nobody", "--id", "billing"},
    };

    @TempDir
    Path dir;

    private static QueueConfig config(Path store, String backend) {
        return QueueConfig.builder(store).backend(backend).build();
    }

    private static String[] concat(String[] command, String... more) {
        List<String> args = new ArrayList<>(List.of(command));
        args.addAll(List.of(more));
        return args.toArray(String[]::new);
    }

    private static String secretless(String out) {
        return out.replaceAll("whsec_[A-Za-z0-9+/=]+", "whsec_<secret>")
                .replaceAll("\\d{4}-\\d\\d-\\d\\dT[0-9:.]+Z", "<time>");
    }

    private List<CommandRun> byStore(Path store, String backend, String[]... commands) {
        List<CommandRun> runs = new ArrayList<>();
        for (String[] command : commands) {
            runs.add(CommandRun.of(concat(command, "--store", store.toString(), "--backend", backend)));
        }
        return runs;
    }

    private List<CommandRun> byUrl(Path store, String backend, String[]... commands) {
        Path tokens;
        try {
            tokens = Files.writeString(Files.createTempFile(dir, "token", ".txt"), OPERATOR_TOKEN + "\n");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<CommandRun> runs = new ArrayList<>();
        try (Queue queue = Queue.open(config(store, backend));
                AdminServer server = AdminServer.builder(queue)
                        .accessPolicy(AccessPolicy.tokens(Map.of(OPERATOR_TOKEN, Role.OPERATOR))).build().start()) {
            for (String[] command : commands) {
                runs.add(CommandRun.of(concat(command, "--url", "http://127.0.0.1:" + server.port() + "/",
                        "--token-file", tokens.toString())));
            }
        }
        return runs;
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"rocksdb", "lmdb"})
    void registryChangesPrintTheSameAgainstAStoreAndOverTheUrlAndAreAudited(String backend) {
        Path storeA = TenantStores.storeWith(dir.resolve("a"), backend, "a");
        Path storeB = TenantStores.storeWith(dir.resolve("b"), backend, "a");
        for (boolean json : new boolean[] {false, true}) {
            String[][] commands = json ? java.util.Arrays.stream(CHANGES).map(c -> concat(c, "--json"))
                    .toArray(String[][]::new) : CHANGES;

            List<CommandRun> store = byStore(storeA, backend, commands);
            List<CommandRun> url = byUrl(storeB, backend, commands);

            for (int i = 0; i < commands.length; i++) {
                assertThat(store.get(i).exitCode()).as(store.get(i).err()).isZero();
                assertThat(url.get(i).exitCode()).as(url.get(i).err()).isZero();
                assertThat(secretless(url.get(i).out())).isEqualTo(secretless(store.get(i).out())).isNotBlank();
            }
            if (json) {
                assertThat(store.get(0).out()).contains("\"action\":\"registered\"", "\"id\":\"billing\"",
                        "\"eventTypes\":[\"invoice.*\",\"user.created\"]", "\"headers\":{\"X-Team\":\"billing\"}")
                        .containsPattern("\"secret\":\"whsec_[A-Za-z0-9+/=]+\"");
                assertThat(store.get(2).out()).as("the old secret signs until the overlap ends, the new one has no end")
                        .containsPattern("\"expiresAt\":\"[^\"]+\"").contains("\"expiresAt\":null");
            } else {
                assertThat(store.get(0).out()).contains("registered endpoint billing of tenant a", "invoice.*, user.created",
                        "X-Team=billing", "50/s");
                assertThat(store.get(2).out()).contains("(signs until ");
            }
        }

        String cli = CliActor.name();
        assertThat(cli).startsWith("cli:");
        try (Queue a = Queue.open(config(storeA, backend))) {
            List<AuditEntry> trail = a.auditTrail(8);
            assertThat(trail).extracting(AuditEntry::action).startsWith(AuditAction.ENDPOINT_REMOVE,
                    AuditAction.ENDPOINT_ROTATE, AuditAction.ENDPOINT_UPDATE, AuditAction.ENDPOINT_REGISTER);
            assertThat(trail).extracting(AuditEntry::actor).containsOnly(Optional.of(cli));
            assertThat(a.endpointRegistry().endpoints("a")).isEmpty();
        }
        try (Queue b = Queue.open(config(storeB, backend))) {
            assertThat(b.auditTrail(8)).extracting(AuditEntry::actor).doesNotContain(Optional.of(cli))
                    .allSatisfy(actor -> assertThat(actor.orElseThrow()).startsWith("token-"));
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"rocksdb", "lmdb"})
    void aRefusalOfTheRegistryHasTheSameExitCodeAndReasonBothWays(String backend) {
        Path storeA = TenantStores.storeWith(dir.resolve("a"), backend, "a");
        Path storeB = TenantStores.storeWith(dir.resolve("b"), backend, "a");
        String[] add = CHANGES[0];

        List<CommandRun> store = byStore(storeA, backend, add, add);
        List<CommandRun> url = byUrl(storeB, backend, add, add);
        assertThat(store.get(1).exitCode()).isEqualTo(url.get(1).exitCode()).isEqualTo(ExitCode.USAGE.code());
        assertThat(store.get(1).err()).contains("[duplicate_id]");
        assertThat(url.get(1).err()).contains("[duplicate_id]");

        List<CommandRun> refusedByStore = byStore(storeA, backend, REFUSED);
        List<CommandRun> refusedByUrl = byUrl(storeB, backend, REFUSED);

        List<Integer> codes = List.of(ExitCode.USAGE.code(), ExitCode.USAGE.code(), ExitCode.USAGE.code(),
                ExitCode.UNKNOWN_TENANT.code(), ExitCode.UNKNOWN_TENANT.code());
        List<String> reasons = List.of("[address_refused]", "[invalid_url]", "[invalid_event_type]",
                "[unknown_endpoint]", "[unknown_tenant]");
        for (int i = 0; i < REFUSED.length; i++) {
            assertThat(refusedByStore.get(i).exitCode()).as(refusedByStore.get(i).err()).isEqualTo(codes.get(i));
            assertThat(refusedByUrl.get(i).exitCode()).as(refusedByUrl.get(i).err()).isEqualTo(codes.get(i));
            assertThat(refusedByStore.get(i).err()).contains(reasons.get(i));
            assertThat(refusedByUrl.get(i).err()).contains(reasons.get(i));
        }
        try (Queue a = Queue.open(config(storeA, backend))) {
            assertThat(a.endpointRegistry().endpoints("a")).extracting(RegisteredEndpoint::id)
                    .containsExactly("billing");
        }
        assertThat(CommandRun.of("endpoints", "add", "--tenant", "a", "--store", storeA.toString()).exitCode())
                .as("--endpoint-url is required").isEqualTo(ExitCode.USAGE.code());
        assertThat(CommandRun.of("endpoints", "--store", storeA.toString()).exitCode()).as("an action is needed")
                .isEqualTo(ExitCode.USAGE.code());
    }
}

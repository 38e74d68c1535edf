package io.ankusa.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.admin.AccessPolicy;
import io.ankusa.admin.AdminServer;
import io.ankusa.admin.Role;
import io.ankusa.api.QueueConfig;
import io.ankusa.queue.Queue;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The read and repair commands beside {@code stats} and {@code endpoints} ({@link LiveNodeCommandTest}), each
 * run against a store and, on the same data, with {@code --url} against an {@link AdminServer} on 127.0.0.1
 * over that store: the output, text and {@code --json}, and the exit code are the same. A read runs twice on
 * one store; a repair runs once on each of two copies of one store, and the copies are compared after it.
 */
class LiveNodeOperatorCommandsTest {

    private static final String OPERATOR_TOKEN = "operator-token-0123456789";

    @TempDir
    Path dir;

    /**
     * A demo's store: 40 hooks of 3 tenants (tenant-0 .. tenant-2), about half dead after one attempt (a
     * permanent failure), the others delivered; so it holds dead letters, their hooks and an attempt history.
     */
    private Path demoStore(String backend) {
        Path store = dir.resolve("demo-" + backend);
        CommandRun demo = CommandRun.of("demo", "--store", store.toString(), "--backend", backend, "--hooks", "40",
                "--tenants", "3", "--fail-rate", "0.5", "--permanent-share", "1");
        assertThat(demo.exitCode()).as(demo.err()).isZero();
        return store;
    }

    /** A copy of the closed store {@code store}, file by file. */
    private Path copy(Path store, String name) {
        Path target = dir.resolve(name);
        try (Stream<Path> files = Files.walk(store)) {
            for (Path file : files.toList()) {
                Files.copy(file, target.resolve(store.relativize(file).toString()));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return target;
    }

    private Path tokenFile() {
        try {
            Path file = Files.createTempFile(dir, "token", ".txt");
            Files.writeString(file, OPERATOR_TOKEN + "\n");
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String[] concat(String[] command, String... more) {
        List<String> args = new ArrayList<>(List.of(command));
        args.addAll(List.of(more));
        return args.toArray(String[]::new);
    }

    /** {@code command} against the store, and with {@code --url} against a live node over it. */
    private record Both(CommandRun store, CommandRun url) {

        /** The same exit code, {@code code}, and the same output on stdout. */
        Both sameWith(ExitCode code) {
            assertThat(url.exitCode()).as(url.err()).isEqualTo(store.exitCode());
            assertThat(store.exitCode()).as(store.err()).isEqualTo(code.code());
            assertThat(url.out()).isEqualTo(store.out());
            return this;
        }

        /** The same output, not empty, and exit code 0. */
        Both same() {
            sameWith(ExitCode.OK);
            assertThat(store.out()).isNotBlank();
            return this;
        }
    }

    private static CommandRun byStore(String backend, Path store, String... command) {
        return CommandRun.of(concat(command, "--store", store.toString(), "--backend", backend));
    }

    /** {@code command} with {@code --url} against an admin server over {@code store}: an operator, payloads shown. */
    private CommandRun byUrl(String backend, Path store, String... command) {
        Path tokens = tokenFile();
        try (Queue queue = Queue.open(QueueConfig.builder(store).backend(backend).build());
                AdminServer server = AdminServer.builder(queue)
                        .accessPolicy(AccessPolicy.tokens(Map.of(OPERATOR_TOKEN, Role.OPERATOR)).withPayloads())
                        .build().start()) {
            return CommandRun.of(concat(command, "--url", "http://127.0.0.1:" + server.port() + "/", "--token-file",
                    tokens.toString()));
        }
    }

    /** A read: {@code command} on {@code store}, then over the URL on the same store. */
    private Both read(String backend, Path store, String... command) {
        return new Both(byStore(backend, store, command), byUrl(backend, store, command));
    }

    /**
     * A repair: {@code command} on one copy of {@code store} and over the URL on another; then the dead letters
     * and the tenants of the two copies are the same.
     */
    private Both repair(String backend, Path store, String... command) {
        String name = String.join("-", command).replaceAll("[^A-Za-z0-9-]", "_");
        Path one = copy(store, "store-" + name);
        Path other = copy(store, "url-" + name);
        Both both = new Both(byStore(backend, one, command), byUrl(backend, other, command));
        for (String[] after : List.of(new String[] {"dlq", "--json", "--limit", "1000"},
                new String[] {"tenants", "--limit", "10", "--json"})) {
            assertThat(byStore(backend, other, after).out()).as("after %s", name)
                    .isEqualTo(byStore(backend, one, after).out());
        }
        return both;
    }

    /** The first dead letter dlq lists for {@code tenant}: its hook id, seq and sink. */
    private static Matcher firstDead(String backend, Path store, String tenant) {
        String json = byStore(backend, store, "dlq", "--tenant", tenant, "--json").out();
        Matcher letter = Pattern.compile("\"hook\":\"([^\"]+)\",\"seq\":(\\d+),\"sink\":(\\d+)").matcher(json);
        assertThat(letter.find()).as("a dead letter of %s in %s", tenant, json).isTrue();
        return letter;
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"rocksdb", "lmdb"})
    void tenantsListsTheSamePagesOverTheUrl(String backend) {
        Path store = demoStore(backend);

        read(backend, store, "tenants", "--limit", "10").same();
        read(backend, store, "tenants", "--prefix", "tenant-1", "--json").same();
        String first = read(backend, store, "tenants", "--limit", "2", "--json").same().url().out();
        Matcher next = Pattern.compile("\"next\":\"([^\"]+)\"").matcher(first);
        assertThat(next.find()).as(first).isTrue();
        Both second = read(backend, store, "tenants", "--limit", "2", "--after", next.group(1)).same();
        assertThat(second.url().out()).contains("tenant-2").doesNotContain("tenant-0");
        read(backend, store, "tenants", "--prefix", "nobody").same();

        CommandRun top = byUrl(backend, store, "tenants");
        assertThat(top.exitCode()).as("the top form reads a store").isEqualTo(ExitCode.USAGE.code());
        assertThat(top.err()).contains("with --url, tenants lists a page");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"rocksdb", "lmdb"})
    void hookShowsTheSameHookOverTheUrl(String backend) {
        Path store = demoStore(backend);
        String seq = firstDead(backend, store, "tenant-0").group(2);

        Both text = read(backend, store, "hook", "--tenant", "tenant-0", "--seq", seq).same();
        assertThat(text.url().out()).contains("(not shown: it may hold personal data").contains("dead");
        read(backend, store, "hook", "--tenant", "tenant-0", "--seq", seq, "--json").same();
        Both payload = read(backend, store, "hook", "--tenant", "tenant-0", "--seq", seq, "--payload").same();
        assertThat(payload.url().out()).contains("Payload (UTF-8, escaped):");
        read(backend, store, "hook", "--tenant", "tenant-0", "--seq", seq, "--payload", "--json").same();
        read(backend, store, "hook", "--tenant", "tenant-0", "--seq", "999999").sameWith(ExitCode.UNKNOWN_TENANT);
        read(backend, store, "hook", "--tenant", "nobody", "--seq", seq).sameWith(ExitCode.UNKNOWN_TENANT);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"rocksdb", "lmdb"})
    void attemptsListsTheSameHistoryOverTheUrl(String backend) {
        Path store = demoStore(backend);
        String hook = firstDead(backend, store, "tenant-1").group(1);

        Both all = read(backend, store, "attempts", "--tenant", "tenant-1", "--limit", "1000").same();
        assertThat(all.url().out()).contains("delivered", "dead", "; no more");
        read(backend, store, "attempts", "--tenant", "tenant-1", "--json").same();
        read(backend, store, "attempts", "--tenant", "tenant-1", "--hook", hook, "--json").same();
        String page = read(backend, store, "attempts", "--tenant", "tenant-1", "--limit", "3").same().url().out();
        Matcher next = Pattern.compile("next page: --after (\\S+)").matcher(page);
        assertThat(next.find()).as(page).isTrue();
        read(backend, store, "attempts", "--tenant", "tenant-1", "--limit", "3", "--after", next.group(1), "--json")
                .same();
        read(backend, store, "attempts", "--tenant", "nobody").sameWith(ExitCode.UNKNOWN_TENANT);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"rocksdb", "lmdb"})
    void dlqListsTheSameLettersOverTheUrl(String backend) {
        Path store = demoStore(backend);

        read(backend, store, "dlq").same();
        read(backend, store, "dlq", "--json", "--limit", "10000").same();
        read(backend, store, "dlq", "--tenant", "tenant-2", "--limit", "3").same();
        String two = read(backend, store, "dlq", "--tenant", "tenant-0", "--tenant", "tenant-2", "--limit", "4",
                "--json").same().url().out();
        assertThat(two).contains("\"tenant\":\"tenant-0\"", "\"tenant\":\"tenant-2\"")
                .doesNotContain("\"tenant\":\"tenant-1\"");
        Matcher next = Pattern.compile("\"next\":\"([^\"]+)\"").matcher(two);
        assertThat(next.find()).as(two).isTrue();
        read(backend, store, "dlq", "--tenant", "tenant-0", "--tenant", "tenant-2", "--limit", "4", "--after",
                next.group(1)).same();
        read(backend, store, "dlq", "--limit", "2", "--after", next.group(1), "--json").same();
        read(backend, store, "dlq", "--tenant", "nobody").sameWith(ExitCode.UNKNOWN_TENANT);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"rocksdb", "lmdb"})
    void replayRevivesTheSameLettersOverTheUrl(String backend) {
        Path store = demoStore(backend);
        Matcher letter = firstDead(backend, store, "tenant-1");

        Both tenant = repair(backend, store, "replay", "--tenant", "tenant-0").same();
        assertThat(tenant.url().out()).startsWith("revived ").doesNotStartWith("revived 0 ");
        repair(backend, store, "replay", "--tenant", "tenant-1", "--hook", letter.group(1)).same();
        repair(backend, store, "replay", "--all", "--limit", "3").same();
        repair(backend, store, "replay", "--tenant", "tenant-1", "--seq", letter.group(2), "--sink", letter.group(3))
                .same();
        repair(backend, store, "replay", "--tenant", "tenant-1", "--seq", letter.group(2), "--sink", "9")
                .sameWith(ExitCode.UNKNOWN_TENANT);
        repair(backend, store, "replay", "--tenant", "nobody").sameWith(ExitCode.UNKNOWN_TENANT);

        Path replayed = copy(store, "replayed");
        assertThat(byStore(backend, replayed, "replay", "--tenant", "tenant-1", "--seq", letter.group(2), "--sink",
                letter.group(3)).exitCode()).isZero();
        Both again = read(backend, replayed, "replay", "--tenant", "tenant-1", "--seq", letter.group(2), "--sink",
                letter.group(3)).sameWith(ExitCode.USAGE);
        assertThat(again.url().err()).contains("is not a dead letter (it is due); nothing replayed");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"rocksdb", "lmdb"})
    void quarantineListsAndMovesTheSameOverTheUrl(String backend) {
        Path store = demoStore(backend);

        Both list = read(backend, store, "quarantine", "list").same();
        assertThat(list.url().out()).isEqualTo("nothing quarantined\n");
        read(backend, store, "quarantine", "list", "--json").same();
        read(backend, store, "quarantine", "list", "--tenant", "tenant-0", "--json").same();
        read(backend, store, "quarantine", "list", "--tenant", "nobody").sameWith(ExitCode.UNKNOWN_TENANT);
        repair(backend, store, "quarantine", "release", "--tenant", "tenant-0").same();
        repair(backend, store, "quarantine", "purge", "--tenant", "tenant-0", "--json").same();

        CommandRun long1 = byUrl(backend, store, "quarantine", "list", "--limit", "1001");
        assertThat(long1.exitCode()).isEqualTo(ExitCode.USAGE.code());
        assertThat(long1.err()).contains("--limit is at most 1000 with --url");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"rocksdb", "lmdb"})
    void purgeRemovesTheSameOverTheUrl(String backend) {
        Path store = demoStore(backend);

        Both dead = repair(backend, store, "purge", "--tenant", "tenant-0", "--kinds", "dead").same();
        assertThat(dead.url().out()).containsPattern("(?m)^dead +[1-9]");
        repair(backend, store, "purge", "--tenant", "tenant-2", "--kinds", "pending,dead").same();
        repair(backend, store, "purge", "--tenant", "nobody", "--kinds", "dead").sameWith(ExitCode.UNKNOWN_TENANT);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"rocksdb", "lmdb"})
    void eraseShowsAndErasesTheSameOverTheUrl(String backend) {
        Path store = demoStore(backend);

        Both shown = read(backend, store, "erase", "--tenant", "tenant-1").same();
        assertThat(shown.url().out()).contains("nothing erased: add --yes to erase it");
        Both erased = repair(backend, store, "erase", "--tenant", "tenant-1", "--yes").same();
        assertThat(erased.url().out()).startsWith("erased tenant tenant-1");
        repair(backend, store, "erase", "--tenant", "nobody", "--yes").sameWith(ExitCode.UNKNOWN_TENANT);
    }
}

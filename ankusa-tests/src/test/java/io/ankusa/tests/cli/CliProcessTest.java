package io.ankusa.tests.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.ankusa.api.Hook;
import io.ankusa.api.QueueConfig;
import io.ankusa.keys.ColumnFamilies;
import io.ankusa.keys.MetaKeys;
import io.ankusa.keys.TenantByOrdKey;
import io.ankusa.queue.Queue;
import io.ankusa.queue.ledger.LedgerSource;
import io.ankusa.queue.ledger.TenantDirectory;
import io.ankusa.queue.migration.StoreLayout;
import io.ankusa.store.Durability;
import io.ankusa.store.Store;
import io.ankusa.store.StoreOptions;
import io.ankusa.store.Stores;
import io.ankusa.store.WriteBatch;
import io.ankusa.tests.queue.StoreSnapshot;
import io.ankusa.tests.upgrade.StoreFixtures;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The {@code ankusa} command as a separate process on the module path: what it prints and how it
 * exits on a real store and on each refusal (exit codes as in {@code docs/cli.md}). Running the CLI
 * as a named module also proves that the other modules' descriptors work for a real consumer.
 */
class CliProcessTest {

    private static CliLauncher ankusa;

    @TempDir
    Path dir;

    @BeforeAll
    static void findTheModules() {
        ankusa = new CliLauncher();
    }

    /** A store with 3 hooks of tenant acme and 1 of globex, one delivery each, written through the queue. */
    private Path store(String backend) {
        Path store = dir.resolve("store");
        try (Queue queue = Queue.open(QueueConfig.builder(store).backend(backend).build())) {
            List<CompletableFuture<?>> receipts = new ArrayList<>();
            for (String tenant : List.of("acme", "acme", "acme", "globex")) {
                receipts.add(queue.ingest(Hook.builder().id("h" + receipts.size()).sourceId("cli-test")
                        .tenantId(tenant).payload("{\"n\":1}").sinks(0).build()));
            }
            CompletableFuture.allOf(receipts.toArray(CompletableFuture<?>[]::new)).join();
        }
        return store;
    }

    /** The committed format-{@code format} fixture of {@code backend}, unpacked (see {@link StoreFixtures}). */
    private Path fixture(int format, String backend) throws Exception {
        Path store = dir.resolve("fixture-v" + format + "-" + backend);
        try (InputStream archive = StoreFixtures.committed(format, backend)) {
            StoreFixtures.unpack(archive, store);
        }
        return store;
    }

    @ParameterizedTest
    @ValueSource(strings = {"rocksdb", "lmdb"})
    void statsPrintsTheCountersOfTheFormat3Fixture(String backend) throws Exception {
        Path store = fixture(3, backend);

        CliLauncher.Result result = ankusa.run("stats", "--store", store.toString(), "--backend", backend);

        // The fixture's rows (StoreFixtures): opening the queue moves its 2 inflight rows back to pending.
        assertThat(result.exitCode()).as(result.err()).isZero();
        assertThat(result.out()).containsPattern("(?m)^tenants\\s+4$").containsPattern("(?m)^pending\\s+8$")
                .containsPattern("(?m)^scheduled\\s+3$").containsPattern("(?m)^inflight\\s+0$")
                .containsPattern("(?m)^dead\\s+6$").containsPattern("(?m)^archive pending\\s+15$");
        assertThat(result.err()).isEmpty();
    }

    @Test
    void shipsAnSlf4jProviderSoNothingWarnsAboutLogging() throws Exception {
        Path store = fixture(3, "rocksdb");

        CliLauncher.Result result = ankusa.run("stats", "--store", store.toString(), "--verbose");

        // Without a provider on its module path SLF4J 2 prints "SLF4J(W): No SLF4J providers were found."
        assertThat(result.exitCode()).as(result.err()).isZero();
        assertThat(result.err()).doesNotContain("SLF4J");
    }

    @Test
    void aFormat2StoreIsRefusedByReadsUntilMigrated() throws Exception {
        Path store = fixture(2, "rocksdb");

        CliLauncher.Result refused = ankusa.run("stats", "--store", store.toString());
        CliLauncher.Result dryRun = ankusa.run("migrate", "--dry-run", "--store", store.toString());
        CliLauncher.Result stillRefused = ankusa.run("tenants", "--store", store.toString());
        CliLauncher.Result migrated = ankusa.run("migrate", "--store", store.toString());
        CliLauncher.Result stats = ankusa.run("stats", "--store", store.toString());
        CliLauncher.Result again = ankusa.run("migrate", "--store", store.toString());

        assertThat(refused.exitCode()).isEqualTo(10);
        assertThat(refused.errLines()).singleElement().asString()
                .startsWith("ankusa: store " + store + " is at format 2; upgrade it with 'ankusa migrate'");
        assertThat(dryRun.exitCode()).as(dryRun.err()).isZero();
        assertThat(dryRun.out()).contains("2 -> 3: ");
        assertThat(stillRefused.exitCode()).as("the dry run changed nothing").isEqualTo(10);
        assertThat(migrated.exitCode()).as(migrated.err()).isZero();
        assertThat(migrated.out()).contains("migrated 2 -> 3");
        assertThat(migrated.err()).contains("migrate 2 -> 3: ");
        assertThat(stats.exitCode()).as(stats.err()).isZero();
        assertThat(stats.out()).containsPattern("(?m)^tenants\\s+5$").containsPattern("(?m)^dead\\s+7$")
                .containsPattern("(?m)^inflight\\s+0$");
        assertThat(again.out()).contains("nothing to migrate");
    }

    @Test
    void statsPrintsTheCountersOfAStoreWrittenThroughTheQueue() throws Exception {
        Path store = store("rocksdb");

        CliLauncher.Result result = ankusa.run("stats", "--store", store.toString());

        assertThat(result.exitCode()).as(result.err()).isZero();
        assertThat(result.out()).containsPattern("(?m)^tenants\\s+2$").containsPattern("(?m)^pending\\s+4$")
                .containsPattern("(?m)^inflight\\s+0$").containsPattern("(?m)^dead\\s+0$");
    }

    @Test
    void statsOfATenantOnAnLmdbStore() throws Exception {
        Path store = store("lmdb");

        CliLauncher.Result result = ankusa.run("--backend", "lmdb", "--store", store.toString(), "stats", "--tenant", "acme");

        assertThat(result.exitCode()).as(result.err()).isZero();
        assertThat(result.out()).containsPattern("(?m)^pending\\s+3$");
    }

    @Test
    void aPathWithoutAStoreExitsThreeAndCreatesNothing() throws Exception {
        Path missing = dir.resolve("nothing-here");

        CliLauncher.Result result = ankusa.run("stats", "--store", missing.toString());

        assertThat(result.exitCode()).isEqualTo(3);
        assertThat(result.errLines()).singleElement().asString().startsWith("ankusa: no store at " + missing);
        assertThat(missing).doesNotExist();
    }

    @Test
    void aStoreOpenInAnotherProcessExitsFour() throws Exception {
        Path store = store("rocksdb");
        try (Queue held = Queue.open(QueueConfig.builder(store).build())) {
            CliLauncher.Result result = ankusa.run("stats", "--store", store.toString());

            assertThat(result.exitCode()).isEqualTo(4);
            assertThat(result.errLines()).singleElement().asString()
                    .isEqualTo("ankusa: store " + store + " is in use by another process (stop it, or work on a checkpoint)");
            assertThat(held.stats().pending()).isEqualTo(4);
        }
    }

    @Test
    void aStoreOfANewerFormatExitsFiveAndIsLeftAsItWas() throws Exception {
        Path store = store("rocksdb");
        List<String> before;
        try (Store raw = Stores.open("rocksdb", StoreOptions.existing(store, StoreLayout.families()))) {
            raw.commit(new WriteBatch().put(ColumnFamilies.DEFAULT, MetaKeys.FORMAT, MetaKeys.u32Value(4)), Durability.SYNC);
            before = StoreSnapshot.of(raw);
        }

        CliLauncher.Result stats = ankusa.run("stats", "--store", store.toString());
        CliLauncher.Result migrate = ankusa.run("migrate", "--store", store.toString());

        for (CliLauncher.Result result : List.of(stats, migrate)) {
            assertThat(result.exitCode()).isEqualTo(5);
            assertThat(result.errLines()).containsExactly(
                    "ankusa: store format 4 is newer than this release supports (3); use a release that reads format 4");
        }
        try (Store raw = Stores.open("rocksdb", StoreOptions.existing(store, StoreLayout.families()))) {
            assertThat(StoreSnapshot.of(raw)).isEqualTo(before);
        }
    }

    @Test
    void anUnknownTenantExitsSix() throws Exception {
        Path store = store("rocksdb");

        CliLauncher.Result result = ankusa.run("stats", "--store", store.toString(), "--tenant", "initech");

        assertThat(result.exitCode()).isEqualTo(6);
        assertThat(result.errLines()).containsExactly("ankusa: unknown tenant 'initech' in " + store);
    }

    @ParameterizedTest
    @ValueSource(strings = {"rocksdb", "lmdb"})
    void storedAndTypedTenantIdsPrintEscapedNeverAsTerminalControlCodes(String backend) throws Exception {
        Path store = store(backend);
        long acme;
        try (Queue queue = Queue.open(QueueConfig.builder(store).backend(backend).build())) {
            acme = LedgerSource.of(queue).tenantDirectory().ord("acme").orElseThrow();
        }
        // A tenant id an older release accepted: the name row of acme's ordinal now holds escape codes.
        String hostile = "evil\u001b[2J\u001b[H\ntenants 0";
        try (Store raw = Stores.open(backend, StoreOptions.existing(store, StoreLayout.families()))) {
            raw.commit(new WriteBatch().put(ColumnFamilies.TENANTS, new TenantByOrdKey(acme).encode(),
                    TenantByOrdKey.value(hostile)), Durability.SYNC);
        }

        CliLauncher.Result tenants = ankusa.run("tenants", "--store", store.toString(), "--backend", backend);
        CliLauncher.Result dlq = ankusa.run("dlq", "--store", store.toString(), "--backend", backend,
                "--tenant", "typed\u001b]0;title\u0007\nx");

        assertThat(tenants.exitCode()).as(tenants.err()).isZero();
        assertThat(tenants.out()).doesNotContain("\u001b").contains("evil\\x1b[2J\\x1b[H\\ntenants 0  ")
                .containsPattern("(?m)^tenants\\s+2$");
        assertThat(dlq.exitCode()).isEqualTo(6);
        assertThat(dlq.errLines()).containsExactly(
                "ankusa: unknown tenant 'typed\\x1b]0;title\\x07\\nx' in " + store);
    }

    @Test
    void aStoreOfAnotherBackendExitsSeven() throws Exception {
        Path store = store("lmdb");

        CliLauncher.Result result = ankusa.run("stats", "--store", store.toString());

        assertThat(result.exitCode()).isEqualTo(7);
        assertThat(result.errLines()).singleElement().asString().contains("'lmdb' backend");
    }

    @Test
    void badArgumentsExitTwoWithOneLine() throws Exception {
        CliLauncher.Result result = ankusa.run("stats", "--no-such-option");

        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.errLines()).containsExactly(
                "ankusa stats: Unknown option: '--no-such-option' (see 'ankusa stats --help')");
        assertThat(result.out()).isEmpty();
    }

    @Test
    void theDemoDeliversToARealEndpointSigned() throws Exception {
        byte[] key = new byte[32];
        java.util.Arrays.fill(key, (byte) 7);
        String secret = "whsec_" + Base64.getEncoder().encodeToString(key);
        Set<String> verifiedIds = ConcurrentHashMap.newKeySet();
        HttpServer receiver = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        receiver.createContext("/hooks", exchange -> {
            byte[] body = exchange.getRequestBody().readAllBytes();
            String id = exchange.getRequestHeaders().getFirst("webhook-id");
            String signed = id + "." + exchange.getRequestHeaders().getFirst("webhook-timestamp") + "."
                    + new String(body, StandardCharsets.UTF_8);
            if (("v1," + hmac(key, signed)).equals(exchange.getRequestHeaders().getFirst("webhook-signature"))) {
                verifiedIds.add(id);
            }
            exchange.sendResponseHeaders(204, -1);
            exchange.close();
        });
        receiver.start();
        try {
            String url = "http://127.0.0.1:" + receiver.getAddress().getPort() + "/hooks";

            CliLauncher.Result result = ankusa.run("demo", "--store", dir.resolve("demo").toString(), "--hooks", "60",
                    "--tenants", "6", "--url", url, "--secret", secret);

            assertThat(result.exitCode()).as(result.err()).isZero();
            assertThat(result.out()).containsPattern("(?m)^delivered\\s+60$").containsPattern("(?m)^dead\\s+0 ")
                    .contains("HTTP sink to " + url);
            assertThat(result.err()).contains("the SSRF guard allows loopback (127.0.0.0/8, ::1) for this demo");
            assertThat(verifiedIds).hasSize(60).allMatch(id -> id.startsWith("demo-"));
        } finally {
            receiver.stop(0);
        }
    }

    private static String hmac(byte[] key, String content) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return Base64.getEncoder().encodeToString(mac.doFinal(content.getBytes(StandardCharsets.UTF_8)));
        } catch (java.security.GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}

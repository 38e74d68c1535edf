package io.ankusa.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.api.QueueConfig;
import io.ankusa.queue.Queue;
import io.ankusa.queue.ledger.LedgerSource;
import io.ankusa.store.Durability;
import io.ankusa.store.Store;
import io.ankusa.store.WriteBatch;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code ankusa tenants} with {@code --prefix}, {@code --after} or {@code --limit}: one page of the
 * tenants in id order with their counters, and the cursor of the next page.
 */
class TenantListingCommandTest {

    /** A tenant id an older release accepted: an escape sequence and a right-to-left override. */
    private static final String HOSTILE_TENANT = "evil\u001b[2J\u202egnp.exe";

    @TempDir
    Path dir;

    private static String cursor(String out) {
        Matcher m = Pattern.compile("next page: --after (\\S+)").matcher(out);
        assertThat(m.find()).as("a next-page cursor in%n%s", out).isTrue();
        return m.group(1);
    }

    /** The first column of the table rows (between the header and the last line). */
    private static List<String> firstColumn(String out) {
        List<String> lines = out.lines().toList();
        return lines.subList(1, lines.size() - 1).stream().map(line -> line.split("\\s+")[0]).toList();
    }

    @ParameterizedTest
    @ValueSource(strings = {"rocksdb", "lmdb"})
    void tenantsPagesThroughEveryTenantInIdOrderWithTheCursor(String backend) {
        Path store = TenantStores.storeWith(dir, backend, "e", "b", "d", "a", "b", "c");
        List<String> seen = new ArrayList<>();
        List<String> pages = new ArrayList<>();
        String[] args = {"tenants", "--store", store.toString(), "--backend", backend, "--limit", "2"};
        while (true) {
            CommandRun run = CommandRun.of(args);
            assertThat(run.exitCode()).as(run.err()).isZero();
            pages.add(run.out());
            seen.addAll(firstColumn(run.out()));
            if (run.out().endsWith("; no more\n")) {
                break;
            }
            assertThat(pages).as("pages read").hasSizeLessThan(5);
            args = new String[] {"tenants", "--store", store.toString(), "--backend", backend, "--limit", "2",
                "--after", cursor(run.out())};
        }

        assertThat(seen).containsExactly("a", "b", "c", "d", "e");
        assertThat(pages).hasSize(3);
        assertThat(pages.get(0)).matches("""
                tenant  pending  scheduled  inflight  dead  quarantined  bytes
                a             2          0         0     0            0 +\\d+ B
                b             4          0         0     0            0 +\\d+ B
                2 tenants; next page: --after \\S+
                """);
        assertThat(pages.get(2)).matches("(?s).*\ne +2 .*\n1 tenants; no more\n");
    }

    @Test
    void tenantsWithAPrefixListsOnlyTheTenantsWhoseIdStartsWithIt() {
        Path store = TenantStores.storeWith(dir, "rocksdb", "acme-1", "globex", "acme-2", "acme-2", "acmf");

        CommandRun run = CommandRun.of("tenants", "--store", store.toString(), "--prefix", "acme-");
        CommandRun none = CommandRun.of("tenants", "--store", store.toString(), "--prefix", "initech");

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(firstColumn(run.out())).containsExactly("acme-1", "acme-2");
        assertThat(run.out()).endsWith("2 tenants; no more\n");
        assertThat(none.out()).isEqualTo("no tenants\n");
    }

    @Test
    void tenantsJsonGivesThePageWithCountersAndANextCursorTheNextCallTakes() {
        Path store = TenantStores.storeWith(dir, "rocksdb", "a", "b", "b", "c");

        CommandRun first = CommandRun.of("tenants", "--json", "--store", store.toString(), "--limit", "2");
        Matcher next = Pattern.compile("\"next\":\"([^\"]+)\"}\n$").matcher(first.out());
        assertThat(next.find()).as(first.out()).isTrue();
        CommandRun second = CommandRun.of("tenants", "--json", "--store", store.toString(), "--limit", "2",
                "--after", next.group(1));

        assertThat(first.exitCode()).as(first.err()).isZero();
        assertThat(first.out()).matches("\\{\"tenants\":\\[\\{\"tenant\":\"a\",\"pending\":2,\"scheduled\":0,"
                + "\"inflight\":0,\"dead\":0,\"quarantined\":0,\"bytes\":\\d+},\\{\"tenant\":\"b\",\"pending\":4,"
                + "[^]]*}],\"next\":\"[^\"]+\"}\n");
        assertThat(second.out()).matches("\\{\"tenants\":\\[\\{\"tenant\":\"c\",\"pending\":2,[^]]*}],\"next\":null}\n");
    }

    @ParameterizedTest
    @ValueSource(strings = {"rocksdb", "lmdb"})
    void aHostileTenantIdIsListedEscaped(String backend) {
        Path store = TenantStores.storeWith(dir, backend, "acme");
        long ord;
        try (Queue queue = Queue.open(QueueConfig.builder(store).backend(backend).build())) {
            ord = LedgerSource.of(queue).tenantDirectory().ord("acme").orElseThrow();
        }
        // The ordinal-by-tenant index row of a tenant id with control and format characters ('n', id, u32 ord).
        AnkusaCommand options = new AnkusaCommand();
        options.store = store;
        options.backend = backend;
        byte[] id = HOSTILE_TENANT.getBytes(StandardCharsets.UTF_8);
        byte[] key = ByteBuffer.allocate(1 + id.length).put((byte) 'n').put(id).array();
        try (Store raw = StoreAccess.openStore(options)) {
            raw.commit(new WriteBatch().put("tenants", key, ByteBuffer.allocate(4).putInt((int) ord).array()),
                    Durability.SYNC);
        }

        CommandRun table = CommandRun.of("tenants", "--store", store.toString(), "--backend", backend, "--limit", "5");
        CommandRun json = CommandRun.of("tenants", "--json", "--store", store.toString(), "--backend", backend,
                "--prefix", "evil");

        assertThat(table.exitCode()).as(table.err()).isZero();
        assertThat(firstColumn(table.out())).containsExactly("acme", "evil\\x1b[2J\\u202egnp.exe");
        assertThat(table.out()).doesNotContain("\u001b", "\u202e");
        assertThat(json.out()).startsWith("{\"tenants\":[{\"tenant\":\"evil\\u001b[2J\u202egnp.exe\",\"pending\":2,")
                .doesNotContain("\u001b");
    }

    @ParameterizedTest
    @ValueSource(strings = {"--limit 0", "--limit 1001", "--after not-a-cursor!", "--top 3 --limit 2",
        "--prefix p --top 1"})
    void badListingArgumentsAreUsageErrors(String options) {
        Path store = TenantStores.storeWith(dir, "rocksdb", "acme");
        String[] args = ("tenants --store " + store + " " + options).split(" ");

        CommandRun run = CommandRun.of(args);

        assertThat(run.exitCode()).isEqualTo(ExitCode.USAGE.code());
        assertThat(run.errLines()).singleElement().asString().startsWith("ankusa tenants: ");
        assertThat(run.out()).isEmpty();
    }

    @Test
    void anOutOfRangeLimitSaysTheRange() {
        Path store = TenantStores.storeWith(dir, "rocksdb", "acme");

        CommandRun run = CommandRun.of("tenants", "--store", store.toString(), "--limit", "0");

        assertThat(run.errLines()).containsExactly(
                "ankusa tenants: --limit must be within 1..1000: 0 (see 'ankusa tenants --help')");
    }
}

package io.ankusa.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.api.AuditAction;
import io.ankusa.api.AuditEntry;
import io.ankusa.api.Hook;
import io.ankusa.api.QueueConfig;
import io.ankusa.queue.Queue;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** dlq, purge, replay and tenants --top over stores with dead letters (made by a small demo) or a backlog. */
class OperatorCommandsTest {

    @TempDir
    Path dir;

    /** A store whose 400 hooks over 8 tenants all end dead (every attempt fails for good). */
    private Path deadStore() {
        Path store = dir.resolve("dead");
        CommandRun demo = CommandRun.of("demo", "--store", store.toString(), "--hooks", "400", "--tenants", "8",
                "--fail-rate", "1", "--permanent-share", "1");
        assertThat(demo.exitCode()).as(demo.err()).isZero();
        return store;
    }

    private static long number(String text, String label) {
        Matcher m = Pattern.compile("(?m)^" + label + "\\s+([0-9,]+)").matcher(text);
        assertThat(m.find()).as("a '%s' row in%n%s", label, text).isTrue();
        return Long.parseLong(m.group(1).replace(",", ""));
    }

    private static String cursor(String out) {
        Matcher m = Pattern.compile("next page: --after (\\S+)").matcher(out);
        assertThat(m.find()).as("a next-page cursor in%n%s", out).isTrue();
        return m.group(1);
    }

    @Test
    void dlqPagesTheWholeStoreNewestFirstWithACursor() {
        Path store = deadStore();

        CommandRun first = CommandRun.of("dlq", "--store", store.toString(), "--limit", "300");
        CommandRun second = CommandRun.of("dlq", "--store", store.toString(), "--limit", "300", "--after", cursor(first.out()));

        assertThat(first.exitCode()).as(first.err()).isZero();
        assertThat(first.out()).contains("300 dead letters; next page: --after ").contains("simulated permanent failure");
        assertThat(second.out()).contains("100 dead letters; no more");
        List<String> hooks = Pattern.compile("demo-\\d+").matcher(first.out() + second.out()).results()
                .map(r -> r.group()).distinct().toList();
        assertThat(hooks).hasSize(400);
    }

    @Test
    void dlqOfATenantListsOnlyItsLetters() {
        Path store = deadStore();

        CommandRun run = CommandRun.of("dlq", "--store", store.toString(), "--tenant", "tenant-3", "--limit", "1000");

        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).startsWith("dead at").containsPattern(
                "^dead at\\s+tenant\\s+hook\\s+seq\\s+sink\\s+attempts\\s+last error\n");
        assertThat(run.out().lines().filter(l -> l.startsWith("20"))).isNotEmpty()
                .allSatisfy(line -> assertThat(line).contains(" tenant-3 "));
        assertThat(run.out()).contains("; no more");
    }

    @ParameterizedTest
    @ValueSource(strings = {"dlq --tenant nobody", "purge --tenant nobody --kinds dead", "replay --tenant nobody"})
    void anUnknownTenantIsExitCodeSix(String command) {
        Path store = deadStore();
        String[] args = (command + " --store " + store).split(" ");

        CommandRun run = CommandRun.of(args);

        assertThat(run.exitCode()).isEqualTo(ExitCode.UNKNOWN_TENANT.code());
        assertThat(run.errLines()).containsExactly("ankusa: unknown tenant 'nobody' in " + store);
    }

    @Test
    void replayOfATenantRevivesItsDeadLettersAndIsAudited() {
        Path store = deadStore();
        long deadBefore = number(CommandRun.of("stats", "--store", store.toString(), "--tenant", "tenant-0").out(), "dead");

        CommandRun run = CommandRun.of("replay", "--store", store.toString(), "--tenant", "tenant-0");

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).isEqualTo("revived " + deadBefore + " dead letters of tenant tenant-0\n");
        String after = CommandRun.of("stats", "--store", store.toString(), "--tenant", "tenant-0").out();
        assertThat(number(after, "dead")).isZero();
        assertThat(number(after, "pending")).isEqualTo(deadBefore);
        try (Queue queue = Queue.open(QueueConfig.builder(store).build())) {
            List<AuditEntry> replays = queue.auditTrail(100).stream().filter(e -> e.action() == AuditAction.REPLAY).toList();
            assertThat(replays).as("one entry for the one replay").hasSize(1);
            AuditEntry entry = replays.get(0);
            assertThat(entry.tenantId()).isEqualTo("tenant-0");
            assertThat(entry.counts()).containsEntry("revived", deadBefore);
        }
    }

    @Test
    void replayOfOneHookRevivesOnlyIt() {
        Path store = deadStore();
        String line = CommandRun.of("dlq", "--store", store.toString(), "--tenant", "tenant-1", "--limit", "1").out().lines()
                .filter(l -> l.startsWith("20")).findFirst().orElseThrow();
        String hook = Pattern.compile("demo-\\d+").matcher(line).results().findFirst().orElseThrow().group();

        CommandRun run = CommandRun.of("replay", "--store", store.toString(), "--tenant", "tenant-1", "--hook", hook);

        assertThat(run.out()).isEqualTo("revived 1 dead letters of tenant tenant-1, hook " + hook + "\n");
    }

    @Test
    void replayOfAPageRevivesThatManyAndGivesTheNextCursor() {
        Path store = deadStore();

        CommandRun run = CommandRun.of("replay", "--store", store.toString(), "--all", "--limit", "150");

        assertThat(run.out()).startsWith("revived 150 dead letters; next page: --after ");
        assertThat(number(CommandRun.of("stats", "--store", store.toString()).out(), "dead")).isEqualTo(250);
    }

    @Test
    void purgeRemovesWhatItIsAskedAndReportsIt() {
        Path store = deadStore();
        CommandRun.of("replay", "--store", store.toString(), "--tenant", "tenant-2");
        String before = CommandRun.of("stats", "--store", store.toString(), "--tenant", "tenant-2").out();

        CommandRun dead = CommandRun.of("purge", "--store", store.toString(), "--tenant", "tenant-2", "--kinds", "dead");
        CommandRun pending = CommandRun.of("purge", "--store", store.toString(), "--tenant", "tenant-2", "--kinds", "pending,dead");

        assertThat(dead.exitCode()).as(dead.err()).isZero();
        assertThat(number(dead.out(), "dead")).isZero();
        assertThat(number(pending.out(), "pending")).isEqualTo(number(before, "pending")).isPositive();
        String after = CommandRun.of("stats", "--store", store.toString(), "--tenant", "tenant-2").out();
        assertThat(number(after, "pending") + number(after, "dead")).isZero();
    }

    @Test
    void eraseShowsWithoutYesAndErasesWithIt() {
        Path store = deadStore();
        long tenantsBefore = number(CommandRun.of("stats", "--store", store.toString()).out(), "tenants");

        CommandRun dry = CommandRun.of("erase", "--store", store.toString(), "--tenant", "tenant-2");
        assertThat(dry.exitCode()).as(dry.err()).isZero();
        assertThat(dry.out()).contains("nothing erased");
        assertThat(number(dry.out(), "dead")).isPositive();
        assertThat(number(CommandRun.of("stats", "--store", store.toString(), "--tenant", "tenant-2").out(), "dead"))
                .isPositive();

        CommandRun erase = CommandRun.of("erase", "--store", store.toString(), "--tenant", "tenant-2", "--yes");
        assertThat(erase.exitCode()).as(erase.err()).isZero();
        assertThat(number(erase.out(), "dead")).isEqualTo(number(dry.out(), "dead"));
        assertThat(number(erase.out(), "hooks")).isPositive();
        assertThat(number(erase.out(), "quarantined")).as("the fixture has no quarantined delivery").isZero();

        CommandRun again = CommandRun.of("erase", "--store", store.toString(), "--tenant", "tenant-2", "--yes");
        assertThat(again.exitCode()).as("the tenant is gone").isEqualTo(ExitCode.UNKNOWN_TENANT.code());
        assertThat(number(CommandRun.of("stats", "--store", store.toString()).out(), "tenants"))
                .as("the ordinal is never reused: the count of tenants ever seen stays").isEqualTo(tenantsBefore);
    }

    @ParameterizedTest
    @ValueSource(strings = {"purge --tenant a", "purge --kinds dead", "erase --yes", "purge --tenant a --kinds inflight",
        "replay", "replay --all --hook h", "replay --tenant a --after 1-2-3", "dlq --after nonsense", "dlq --limit 0",
        "tenants --top 101", "replay --tenant a --seq 1", "replay --tenant a --sink 0", "replay --all --seq 1 --sink 0",
        "replay --tenant a --hook h --seq 1 --sink 0", "replay --tenant a --seq 1 --sink 65536",
        "replay --tenant a --seq 0 --sink 0"})
    void badOperatorArgumentsAreUsageErrors(String command) {
        Path store = deadStore();
        String[] args = (command + " --store " + store).split(" ");

        CommandRun run = CommandRun.of(args);

        assertThat(run.exitCode()).isEqualTo(ExitCode.USAGE.code());
        assertThat(run.errLines()).hasSize(1);
    }

    @Test
    void tenantsListsTheTopTenantsByPending() {
        Path store = dir.resolve("backlog");
        try (Queue queue = Queue.open(QueueConfig.builder(store).build())) {
            List<CompletableFuture<?>> receipts = new java.util.ArrayList<>();
            String[] tenants = {"big", "big", "big", "mid", "mid", "small"};
            for (int i = 0; i < tenants.length; i++) {
                receipts.add(queue.ingest(Hook.builder().id("h" + i).sourceId("t").tenantId(tenants[i]).sinks(0).build()));
            }
            CompletableFuture.allOf(receipts.toArray(CompletableFuture<?>[]::new)).join();
        }

        CommandRun run = CommandRun.of("tenants", "--store", store.toString(), "--top", "2");

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).isEqualTo("""
                tenants 3
                Top tenants by pending (among the 10,000 waiting longest):
                tenant  pending
                big           3
                mid           2
                """);
    }
}

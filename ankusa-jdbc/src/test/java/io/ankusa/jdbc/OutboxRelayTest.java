package io.ankusa.jdbc;

import static io.ankusa.jdbc.OutboxFixture.assertOutboxEmpty;
import static io.ankusa.jdbc.OutboxFixture.await;
import static io.ankusa.jdbc.OutboxFixture.count;
import static io.ankusa.jdbc.OutboxFixture.execute;
import static io.ankusa.jdbc.OutboxFixture.hook;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ankusa.api.Hook;
import io.ankusa.api.IntakePosition;
import io.ankusa.api.InvalidHookException;
import io.ankusa.dispatch.Pipeline;
import io.ankusa.dispatch.sink.Delivery;
import io.ankusa.queue.Queue;
import io.ankusa.tests.postgres.PostgresCluster;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The outbox and its relay against a real PostgreSQL: transactions, gaps, refusals, the lock. */
class OutboxRelayTest {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final AtomicInteger TABLES = new AtomicInteger();

    private static PostgresCluster cluster;

    @TempDir
    Path dir;

    private String table;
    private AnkusaOutbox outbox;
    private DataSource dataSource;

    @BeforeAll
    static void startPostgres() throws Exception {
        cluster = PostgresCluster.start();
    }

    @AfterAll
    static void stopPostgres() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
    }

    @BeforeEach
    void createTables() throws SQLException {
        table = "outbox_" + TABLES.incrementAndGet();
        outbox = AnkusaOutbox.builder(OutboxDialect.POSTGRESQL).table(table).build();
        dataSource = cluster.dataSource("relay-" + table);
        try (Connection c = cluster.connect()) {
            outbox.createTables(c);
            execute(c, "CREATE TABLE " + table + "_orders (id TEXT PRIMARY KEY, amount INT NOT NULL)");
        }
    }

    private OutboxRelay.Builder relay(Queue queue) {
        return OutboxRelay.builder(dataSource, queue, OutboxDialect.POSTGRESQL).table(table)
                .takeoverDelay(Duration.ZERO).pollInterval(Duration.ofMillis(50));
    }

    /** Inserts an order and its hook in one transaction, committed. */
    private long commitOrder(String id) throws SQLException {
        try (Connection c = cluster.connect()) {
            c.setAutoCommit(false);
            long row = addOrder(c, id);
            c.commit();
            return row;
        }
    }

    private long addOrder(Connection c, String id) throws SQLException {
        try (PreparedStatement insert = c.prepareStatement(
                "INSERT INTO " + table + "_orders (id, amount) VALUES (?, 42)")) {
            insert.setString(1, id);
            insert.executeUpdate();
        }
        return outbox.add(c, hook(id));
    }

    private static List<String> hookIds(List<Delivery> deliveries) {
        return deliveries.stream().map(Delivery::hookId).toList();
    }

    @Test
    @SuppressWarnings("try") // the pipeline delivers while the test runs; the test only closes it
    void aCommittedTransactionsHookIsDelivered() throws Exception {
        List<Delivery> deliveries = OutboxFixture.deliveries();
        try (Queue queue = OutboxFixture.queue(dir.resolve("store"));
                Pipeline pipeline = OutboxFixture.recording(queue, deliveries);
                OutboxRelay relay = relay(queue).build().start()) {
            long row = commitOrder("ord_1");

            await(WAIT, "the hook's delivery", () -> !deliveries.isEmpty());
            Delivery delivery = deliveries.get(0);
            assertThat(delivery.hookId()).isEqualTo("ord_1");
            assertThat(delivery.tenantId()).isEqualTo("acme");
            assertThat(delivery.sourceId()).isEqualTo("orders");
            assertThat(delivery.headers()).containsEntry("content-type", "application/json");
            assertThat(new String(delivery.payload(), StandardCharsets.UTF_8)).isEqualTo("{\"order\":\"ord_1\"}");
            assertThat(queue.intakePosition(table)).isEqualTo(OptionalLong.of(row));
            await(WAIT, "the relayed row's delete", () -> relay.stats().relayed() == 1);
            try (Connection c = cluster.connect()) {
                assertOutboxEmpty(c, table);
                assertThat(count(c, "SELECT count(*) FROM " + table + "_orders WHERE id = 'ord_1'")).isOne();
            }
        }
    }

    @Test
    @SuppressWarnings("try") // the pipeline delivers while the test runs; the test only closes it
    void aRolledBackTransactionSendsNothing() throws Exception {
        List<Delivery> deliveries = OutboxFixture.deliveries();
        try (Queue queue = OutboxFixture.queue(dir.resolve("store"));
                Pipeline pipeline = OutboxFixture.recording(queue, deliveries);
                OutboxRelay relay = relay(queue).gapWait(Duration.ofMillis(300)).build().start()) {
            try (Connection c = cluster.connect()) {
                c.setAutoCommit(false);
                addOrder(c, "ord_rolled_back");
                c.rollback();
            }
            commitOrder("ord_kept");

            await(WAIT, "the committed hook's delivery", () -> !deliveries.isEmpty());
            Thread.sleep(300);
            assertThat(hookIds(deliveries)).containsExactly("ord_kept");
            assertThat(relay.stats().gapsPassed()).as("the rolled-back id, passed after the gap wait").isOne();
            try (Connection c = cluster.connect()) {
                assertThat(count(c, "SELECT count(*) FROM " + table + "_orders")).isOne();
                assertOutboxEmpty(c, table);
                assertThat(count(c, "SELECT count(*) FROM " + table + "_refused")).isZero();
            }
        }
    }

    @Test
    void aRowCommittedAfterALaterIdIsNotSkipped() throws Exception {
        List<String> ingested = new CopyOnWriteArrayList<>();
        try (Queue store = OutboxFixture.queue(dir.resolve("store"));
                OutboxRelay relay = relay(OutboxFixture.observed(store, h -> ingested.add(h.id())))
                        .gapWait(Duration.ofSeconds(20)).build().start();
                Connection slow = cluster.connect();
                Connection fast = cluster.connect()) {
            slow.setAutoCommit(false);
            fast.setAutoCommit(false);
            long first = addOrder(slow, "ord_slow");
            long second = addOrder(fast, "ord_fast");
            assertThat(second).isGreaterThan(first);
            fast.commit();

            Thread.sleep(1_000); // the relay sees the later id and waits at the missing one
            assertThat(ingested).isEmpty();
            assertThat(store.intakePosition(table)).isEmpty();
            slow.commit();

            await(WAIT, "both hooks ingested", () -> ingested.size() == 2);
            assertThat(ingested).containsExactly("ord_slow", "ord_fast");
            await(WAIT, "both rows deleted", () -> relay.stats().relayed() == 2);
            assertThat(store.intakePosition(table)).isEqualTo(OptionalLong.of(second));
            assertThat(store.stats().pending()).isEqualTo(2);
            assertThat(relay.stats().gapsPassed()).isZero();
            assertThat(relay.stats().late()).isZero();
        }
    }

    @Test
    void aRowCommittedAfterItsIdWasPassedGoesToTheRefusedTableNotIntoTheQueue() throws Exception {
        List<String> ingested = new CopyOnWriteArrayList<>();
        try (Queue store = OutboxFixture.queue(dir.resolve("store"));
                OutboxRelay relay = relay(OutboxFixture.observed(store, h -> ingested.add(h.id())))
                        .gapWait(Duration.ofMillis(200)).build().start();
                Connection slow = cluster.connect()) {
            slow.setAutoCommit(false);
            long late = addOrder(slow, "ord_late");
            commitOrder("ord_on_time");
            await(WAIT, "the later row relayed past the gap", () -> relay.stats().relayed() == 1);
            slow.commit();

            await(WAIT, "the late row moved aside", () -> relay.stats().late() == 1);
            assertThat(ingested).containsExactly("ord_on_time");
            try (Connection c = cluster.connect()) {
                assertOutboxEmpty(c, table);
                try (PreparedStatement select = c.prepareStatement(
                        "SELECT id, hook_id, error FROM " + table + "_refused");
                        ResultSet r = select.executeQuery()) {
                    assertThat(r.next()).isTrue();
                    assertThat(r.getLong(1)).isEqualTo(late);
                    assertThat(r.getString(2)).isEqualTo("ord_late");
                    assertThat(r.getString(3)).isEqualTo("late_commit");
                    assertThat(r.next()).isFalse();
                }
            }
        }
    }

    @Test
    void aRowAtOrBelowTheStoredPositionIsDeletedNotIngestedAgain() throws Exception {
        try (Queue store = OutboxFixture.queue(dir.resolve("store"))) {
            long first = commitOrder("ord_1");
            long second = commitOrder("ord_2");
            // what a relay that died between its ingest and its delete leaves behind
            store.ingest(hook("ord_1"), new IntakePosition(table, first), Duration.ZERO).join();
            store.ingest(hook("ord_2"), new IntakePosition(table, second), Duration.ZERO).join();
            long third = commitOrder("ord_3");

            List<String> ingested = new CopyOnWriteArrayList<>();
            try (OutboxRelay relay = relay(OutboxFixture.observed(store, h -> ingested.add(h.id()))).build().start()) {
                await(WAIT, "the third row relayed", () -> relay.stats().relayed() == 1);
                assertThat(relay.stats().skipped()).isEqualTo(2);
            }
            assertThat(ingested).containsExactly("ord_3");
            assertThat(store.intakePosition(table)).isEqualTo(OptionalLong.of(third));
            assertThat(store.stats().pending()).isEqualTo(3);
            try (Connection c = cluster.connect()) {
                assertOutboxEmpty(c, table);
            }
        }
    }

    @Test
    void inputTheQueueWouldRefuseIsRefusedInsideTheTransaction() throws Exception {
        AnkusaOutbox small = AnkusaOutbox.builder(OutboxDialect.POSTGRESQL).table(table).payloadMaxBytes(16).build();
        Hook tooLarge = Hook.builder().id("ord_big").sourceId("orders").payload(new byte[17]).sinks(0).build();
        try (Connection c = cluster.connect()) {
            c.setAutoCommit(false);
            try (PreparedStatement insert = c.prepareStatement(
                    "INSERT INTO " + table + "_orders (id, amount) VALUES ('ord_big', 1)")) {
                insert.executeUpdate();
            }
            assertThatThrownBy(() -> small.add(c, tooLarge)).isInstanceOfSatisfying(InvalidHookException.class,
                    e -> assertThat(e.reason()).isEqualTo(InvalidHookException.Reason.PAYLOAD_TOO_LARGE));
            // nothing was sent to the database: the transaction is intact and the application decides
            c.commit();
            assertOutboxEmpty(c, table);
            assertThat(count(c, "SELECT count(*) FROM " + table + "_orders WHERE id = 'ord_big'")).isOne();
        }
        assertThatThrownBy(() -> Hook.builder().id("has.full.stop").sourceId("orders").sinks(0).build())
                .isInstanceOf(InvalidHookException.class);
        assertThatThrownBy(() -> AnkusaOutbox.builder(OutboxDialect.POSTGRESQL).table("orders; DROP TABLE x"))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aRowTheQueueRefusesLandsInTheRefusedTable() throws Exception {
        try (Queue store = OutboxFixture.queue(dir.resolve("store"), 1);
                OutboxRelay relay = relay(store).build().start()) {
            long accepted;
            long pastTheLimit;
            long broken;
            try (Connection c = cluster.connect()) {
                c.setAutoCommit(false);
                accepted = outbox.add(c, OutboxFixture.hook("ord_a", "tenant-a"));
                pastTheLimit = outbox.add(c, OutboxFixture.hook("ord_b", "tenant-b"));
                c.commit();
                // a row written by something other than AnkusaOutbox.add: a hook id no hook can have
                try (PreparedStatement insert = c.prepareStatement("INSERT INTO " + table
                        + " (tenant_id, hook_id, source_id, sinks, headers, payload) VALUES ('tenant-a', 'bad id', 'x',"
                        + " '0', '', ''::bytea) RETURNING id");
                        ResultSet r = insert.executeQuery()) {
                    r.next();
                    broken = r.getLong(1);
                }
                c.commit();
            }
            await(WAIT, "all three rows settled", () -> relay.stats().relayed() + relay.stats().refused() == 3);
            assertThat(relay.stats().relayed()).isOne();
            assertThat(relay.stats().refused()).isEqualTo(2);
            assertThat(store.intakePosition(table)).isEqualTo(OptionalLong.of(accepted));
            try (Connection c = cluster.connect()) {
                assertOutboxEmpty(c, table);
                List<String> refused = new ArrayList<>();
                try (PreparedStatement select = c.prepareStatement(
                        "SELECT id, hook_id, error, reason FROM " + table + "_refused ORDER BY id");
                        ResultSet r = select.executeQuery()) {
                    while (r.next()) {
                        refused.add(r.getLong(1) + " " + r.getString(2) + " " + r.getString(3));
                        assertThat(r.getString(4)).isNotBlank();
                    }
                }
                assertThat(refused).containsExactly(pastTheLimit + " ord_b tenant_limit",
                        broken + " bad id invalid_hook");
            }
        }
    }

    @Test
    void twoRelaysNeverIngestAtOnce() throws Exception {
        record Ingest(String relay, long nanos) {
        }
        List<Ingest> ingests = new CopyOnWriteArrayList<>();
        Duration takeover = Duration.ofMillis(600);
        try (Queue store = OutboxFixture.queue(dir.resolve("store"))) {
            Queue seenByA = OutboxFixture.observed(store, h -> ingests.add(new Ingest("a", System.nanoTime())));
            Queue seenByB = OutboxFixture.observed(store, h -> ingests.add(new Ingest("b", System.nanoTime())));
            DataSource a = cluster.dataSource("relay-a-" + table);
            DataSource b = cluster.dataSource("relay-b-" + table);
            try (OutboxRelay relayA = OutboxRelay.builder(a, seenByA, OutboxDialect.POSTGRESQL).table(table)
                    .takeoverDelay(takeover).pollInterval(Duration.ofMillis(20)).batchSize(5).build().start()) {
                await(WAIT, "relay a holds the lock", () -> relayA.stats().state() == RelayStats.State.RELAYING);
                try (OutboxRelay relayB = OutboxRelay.builder(b, seenByB, OutboxDialect.POSTGRESQL).table(table)
                        .takeoverDelay(takeover).pollInterval(Duration.ofMillis(20)).batchSize(5).build().start()) {
                    for (int i = 0; i < 40; i++) {
                        commitOrder("ord_" + i);
                    }
                    await(WAIT, "a relays", () -> relayA.stats().relayed() > 10);
                    assertThat(relayB.stats().state()).isEqualTo(RelayStats.State.WAITING);
                    assertThat(relayB.stats().relayed()).isZero();

                    // a's session ends (a server restart, a network cut, an operator): b takes over
                    try (Connection c = cluster.connect()) {
                        execute(c, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                                + " WHERE application_name = 'relay-a-" + table + "'");
                    }
                    for (int i = 40; i < 80; i++) {
                        commitOrder("ord_" + i);
                    }
                    await(WAIT, "all rows relayed", () -> store.stats().pending() == 80);
                    Thread.sleep(200);
                    assertThat(relayB.stats().relayed()).isPositive();
                    assertThat(relayB.stats().lockAcquisitions()).isOne();
                    // rows a ingested but could not delete any more are deleted by b as relayed before;
                    // a's last delete may also have committed with its reply lost (one pass, 5 rows)
                    assertThat(relayA.stats().relayed() + relayB.stats().relayed() + relayB.stats().skipped())
                            .isBetween(75L, 80L);
                    assertThat(relayA.stats().state()).as("a: " + relayA.stats() + ", b: " + relayB.stats())
                            .isEqualTo(RelayStats.State.WAITING);
                }
            }
            assertThat(ingests).hasSize(80);
            // one owner at a time: between the last ingest of one relay and the first of the other
            // lies at least half the takeover delay (the old relay's fence)
            for (int i = 1; i < ingests.size(); i++) {
                Ingest before = ingests.get(i - 1);
                Ingest after = ingests.get(i);
                if (!before.relay().equals(after.relay())) {
                    assertThat(Duration.ofNanos(after.nanos() - before.nanos())).as("handover at ingest " + i)
                            .isGreaterThanOrEqualTo(takeover.dividedBy(2));
                }
            }
            assertThat(ingests.stream().map(Ingest::relay).distinct()).containsExactly("a", "b");
            try (Connection c = cluster.connect()) {
                assertOutboxEmpty(c, table);
            }
        }
    }

    @Test
    void gapsSeenTogetherAreWaitedOnTogether() throws Exception {
        Duration gapWait = Duration.ofSeconds(2);
        try (Queue store = OutboxFixture.queue(dir.resolve("store"));
                Connection holder = cluster.connect()) {
            // an unrelated open transaction holds the server's xmin back: only the gap wait passes gaps
            holder.setAutoCommit(false);
            execute(holder, "SELECT pg_current_xact_id()");
            try (Connection c = cluster.connect()) {
                c.setAutoCommit(false);
                for (int i = 0; i < 3; i++) {
                    addOrder(c, "ord_rolled_back_" + i);
                    c.rollback();
                    addOrder(c, "ord_" + i);
                    c.commit();
                }
            }
            long start = System.nanoTime();
            try (OutboxRelay relay = relay(store).gapWait(gapWait).build().start()) {
                await(WAIT, "three rows past three gaps", () -> relay.stats().relayed() == 3);
                Duration took = Duration.ofNanos(System.nanoTime() - start);
                assertThat(relay.stats().gapsPassed()).isEqualTo(3);
                // three gaps waited on one after another would take three gap waits
                assertThat(took).isLessThan(gapWait.multipliedBy(2));
            }
            holder.rollback();
        }
    }

    @Test
    void closeEndsTheRelaysOwnNamedThreadAndReleasesTheLock() throws Exception {
        try (Queue store = OutboxFixture.queue(dir.resolve("store"))) {
            OutboxRelay relay = relay(store).build().start();
            await(WAIT, "the relay holds the lock", () -> relay.stats().state() == RelayStats.State.RELAYING);
            Thread thread = Thread.getAllStackTraces().keySet().stream()
                    .filter(t -> t.getName().equals("ankusa-outbox-relay-" + table)).findFirst().orElseThrow();
            assertThat(thread.isDaemon()).isFalse();
            relay.close();
            assertThat(thread.isAlive()).isFalse();
            assertThat(relay.stats().state()).isEqualTo(RelayStats.State.CLOSED);
            try (OutboxRelay next = relay(store).build().start()) {
                await(WAIT, "the next relay takes the lock", () -> next.stats().state() == RelayStats.State.RELAYING);
            }
            relay.close(); // idempotent
        }
    }

    /** {@code queue}, whose ingest of {@code hookId} fails once as a store commit would, without reaching it. */
    private static Queue failingOnce(Queue queue, String hookId, List<String> ingested) {
        AtomicInteger failures = new AtomicInteger();
        return (Queue) Proxy.newProxyInstance(Queue.class.getClassLoader(),
                new Class<?>[] {Queue.class}, (proxy, method, args) -> {
                    if (method.getName().equals("ingest") && args != null && args.length == 3) {
                        String id = ((Hook) args[0]).id();
                        ingested.add(id);
                        if (id.equals(hookId) && failures.getAndIncrement() == 0) {
                            return CompletableFuture.failedFuture(
                                    new IllegalStateException("store commit failed"));
                        }
                    }
                    try {
                        return method.invoke(queue, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    @Test
    void aRowWhoseIngestFailedAfterALaterRowLandedIsWrittenAgainUnderANewId() throws Exception {
        long third;
        commitOrder("ord_1");
        commitOrder("ord_2");
        third = commitOrder("ord_3");
        List<String> ingested = new CopyOnWriteArrayList<>();
        try (Queue store = OutboxFixture.queue(dir.resolve("store"));
                OutboxRelay relay = relay(failingOnce(store, "ord_2", ingested)).build().start()) {
            await(WAIT, "three rows relayed", () -> relay.stats().relayed() == 3);
            assertThat(relay.stats().requeued()).isOne();
            assertThat(ingested).containsExactly("ord_1", "ord_2", "ord_3", "ord_2");
            assertThat(store.stats().pending()).isEqualTo(3);
            assertThat(store.intakePosition(table).orElseThrow()).isGreaterThan(third);
            try (Connection c = cluster.connect()) {
                assertOutboxEmpty(c, table);
                assertThat(count(c, "SELECT count(*) FROM " + table + "_refused")).isZero();
            }
        }
    }

    @Test
    void aRowWhoseIngestFailedWithNothingLaterLandedIsReadAgainUnderItsId() throws Exception {
        commitOrder("ord_1");
        long second = commitOrder("ord_2");
        List<String> ingested = new CopyOnWriteArrayList<>();
        try (Queue store = OutboxFixture.queue(dir.resolve("store"));
                OutboxRelay relay = relay(failingOnce(store, "ord_2", ingested)).build().start()) {
            await(WAIT, "two rows relayed", () -> relay.stats().relayed() == 2);
            assertThat(relay.stats().requeued()).isZero();
            assertThat(ingested).containsExactly("ord_1", "ord_2", "ord_2");
            assertThat(store.stats().pending()).isEqualTo(2);
            assertThat(store.intakePosition(table)).isEqualTo(OptionalLong.of(second));
        }
    }
}

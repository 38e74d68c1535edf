package io.ankusa.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ankusa.api.Hook;
import io.ankusa.jdbc.AnkusaOutbox;
import io.ankusa.jdbc.OutboxDialect;
import io.ankusa.jdbc.OutboxRelay;
import io.ankusa.queue.Queue;
import io.ankusa.tests.postgres.PostgresCluster;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.function.BooleanSupplier;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.postgresql.ds.PGSimpleDataSource;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.IllegalTransactionStateException;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The outbox's auto-configuration: which beans it defines with and without ankusa-jdbc and a
 * DataSource, and, on a private PostgreSQL, that a hook added in a Spring transaction reaches the
 * queue exactly when the transaction commits.
 */
class AnkusaOutboxAutoConfigurationTest {

    private static PostgresCluster cluster;
    private static PGSimpleDataSource dataSource;

    @TempDir
    Path dir;

    @BeforeAll
    static void startPostgres() throws Exception {
        cluster = PostgresCluster.start();
        dataSource = new PGSimpleDataSource();
        dataSource.setURL(cluster.url());
    }

    @AfterAll
    static void stopPostgres() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
    }

    private ApplicationContextRunner runner(String table) {
        return new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(AnkusaAutoConfiguration.class,
                        AnkusaOutboxAutoConfiguration.class))
                .withBean(DataSource.class, () -> dataSource)
                .withPropertyValues("ankusa.directory=" + dir, "ankusa.housekeeping.interval=0s",
                        "ankusa.pipeline.mode=ingest-only", "ankusa.outbox.table=" + table,
                        "ankusa.outbox.create-tables=true",
                        "ankusa.outbox.poll-interval=20ms", "ankusa.outbox.gap-wait=100ms",
                        "ankusa.outbox.takeover-delay=0s");
    }

    @Test
    void theOutboxBeansAppearWithAnkusaJdbcAndADataSource() {
        runner("outbox_beans").withPropertyValues("ankusa.payload.max-bytes=2KiB", "ankusa.outbox.batch-size=7")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context).hasSingleBean(AnkusaOutbox.class).hasSingleBean(TransactionalOutbox.class)
                            .hasSingleBean(OutboxRelay.class).hasSingleBean(OutboxRelayLifecycle.class);
                    AnkusaOutbox outbox = context.getBean(AnkusaOutbox.class);
                    assertThat(outbox.dialect()).as("read from the database").isEqualTo(OutboxDialect.POSTGRESQL);
                    assertThat(outbox.table()).isEqualTo("outbox_beans");
                    assertThat(outbox.payloadMaxBytes()).as("the queue's limit").isEqualTo(2048);
                    assertThat(context.getBean(TransactionalOutbox.class).table()).isEqualTo("outbox_beans");
                    assertThat(count("outbox_beans")).as("the tables were created").isZero();
                    assertThat(context.getBean(OutboxRelayLifecycle.class).isRunning()).isTrue();
                    assertThat(OutboxRelayLifecycle.PHASE).isGreaterThan(QueueLifecycle.PHASE)
                            .isLessThan(PipelineLifecycle.PHASE);
                });
    }

    @Test
    void theOutboxBeansAreAbsentWithoutAnkusaJdbc() {
        runner("outbox_absent").withClassLoader(new FilteredClassLoader(AnkusaOutbox.class)).run(context -> {
            assertThat(context).hasNotFailed().hasSingleBean(Queue.class);
            assertThat(context).doesNotHaveBean(TransactionalOutbox.class).doesNotHaveBean(OutboxRelayLifecycle.class);
        });
    }

    @Test
    void theOutboxBeansAreAbsentWithoutADataSource() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(AnkusaAutoConfiguration.class,
                        AnkusaOutboxAutoConfiguration.class))
                .withPropertyValues("ankusa.directory=" + dir, "ankusa.housekeeping.interval=0s",
                        "ankusa.pipeline.mode=ingest-only")
                .run(context -> {
                    assertThat(context).hasNotFailed().hasSingleBean(Queue.class);
                    assertThat(context).doesNotHaveBean(AnkusaOutbox.class)
                            .doesNotHaveBean(TransactionalOutbox.class).doesNotHaveBean(OutboxRelay.class);
                });
    }

    @Test
    void theOutboxBeansAreAbsentWhenTheOutboxIsDisabled() {
        runner("outbox_disabled").withPropertyValues("ankusa.outbox.enabled=false").run(context -> {
            assertThat(context).hasNotFailed().hasSingleBean(Queue.class);
            assertThat(context).doesNotHaveBean(AnkusaOutbox.class).doesNotHaveBean(OutboxRelay.class);
        });
    }

    @Test
    void aHookAddedInACommittedTransactionReachesTheQueue() {
        runner("outbox_committed").run(context -> {
            assertThat(context).hasNotFailed();
            TransactionalOutbox outbox = context.getBean(TransactionalOutbox.class);
            Queue queue = context.getBean(Queue.class);
            TransactionTemplate transaction = new TransactionTemplate(new DataSourceTransactionManager(dataSource));

            transaction.executeWithoutResult(status -> outbox.add(hook("committed", "ord_1")));

            awaitTrue(() -> queue.pendingForTenant("committed").pending() == 1);
            awaitTrue(() -> count("outbox_committed") == 0);
        });
    }

    @Test
    void aHookAddedInARolledBackTransactionIsNeverIngested() {
        runner("outbox_rolled_back").run(context -> {
            assertThat(context).hasNotFailed();
            TransactionalOutbox outbox = context.getBean(TransactionalOutbox.class);
            Queue queue = context.getBean(Queue.class);
            TransactionTemplate transaction = new TransactionTemplate(new DataSourceTransactionManager(dataSource));

            transaction.executeWithoutResult(status -> {
                outbox.add(hook("rolled-back", "ord_1"));
                status.setRollbackOnly();
            });
            // A later committed hook: once it is in the queue, the relay has passed the rolled-back id.
            transaction.executeWithoutResult(status -> outbox.add(hook("committed", "ord_2")));

            awaitTrue(() -> queue.pendingForTenant("committed").pending() == 1);
            assertThat(queue.pendingForTenant("rolled-back").pending()).isZero();
            awaitTrue(() -> count("outbox_rolled_back") == 0);
            assertThat(count("outbox_rolled_back_refused")).isZero();
        });
    }

    @Test
    void addOutsideATransactionIsRefused() {
        runner("outbox_outside").run(context -> {
            assertThat(context).hasNotFailed();
            TransactionalOutbox outbox = context.getBean(TransactionalOutbox.class);

            assertThatThrownBy(() -> outbox.add(hook("outside", "ord_1")))
                    .isInstanceOf(IllegalTransactionStateException.class)
                    .hasMessageContaining("needs an active transaction");
            assertThat(count("outbox_outside")).as("nothing was written").isZero();
        });
    }

    private static Hook hook(String tenant, String id) {
        return Hook.builder().id(id).sourceId("orders").tenantId(tenant).payload("{}").sinks(0).build();
    }

    private static long count(String table) {
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("SELECT count(*) FROM " + table)) {
            rows.next();
            return rows.getLong(1);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void awaitTrue(BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as("the condition held within 30 s").isLessThan(deadline);
            Thread.sleep(10);
        }
    }
}

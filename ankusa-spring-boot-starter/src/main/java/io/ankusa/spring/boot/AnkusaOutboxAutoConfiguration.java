package io.ankusa.spring.boot;

import io.ankusa.api.QueueConfig;
import io.ankusa.jdbc.AnkusaOutbox;
import io.ankusa.jdbc.OutboxDialect;
import io.ankusa.jdbc.OutboxRelay;
import io.ankusa.queue.Queue;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Locale;
import javax.sql.DataSource;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.jdbc.datasource.DataSourceUtils;

/**
 * The transactional outbox of {@code ankusa-jdbc} over the application's {@link DataSource}, when
 * {@code ankusa-jdbc} and {@code spring-jdbc} are on the class path, the application has a
 * {@code DataSource} and a {@link Queue} bean, and {@code ankusa.outbox.enabled} is not false: an
 * {@link AnkusaOutbox} (the queue's payload limit, the {@code ankusa.outbox.*} settings; its tables
 * created at start with {@code ankusa.outbox.create-tables}), a {@link TransactionalOutbox} that
 * writes in the current Spring transaction, and an {@link OutboxRelay} into the queue, run by
 * {@link OutboxRelayLifecycle}. Each bean backs off when the application defines its own.
 */
@AutoConfiguration(after = AnkusaAutoConfiguration.class,
        afterName = "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration")
@ConditionalOnClass({AnkusaOutbox.class, DataSourceUtils.class})
@ConditionalOnBean({DataSource.class, Queue.class})
@ConditionalOnProperty(prefix = "ankusa.outbox", name = "enabled", matchIfMissing = true)
@EnableConfigurationProperties(AnkusaOutboxProperties.class)
public class AnkusaOutboxAutoConfiguration {

    /** Created by Spring. */
    public AnkusaOutboxAutoConfiguration() {
    }

    /**
     * The outbox, its tables created first when {@code ankusa.outbox.create-tables} is true.
     *
     * @param dataSource  the application's data source
     * @param properties  {@code ankusa.outbox.*}
     * @param queueConfig the queue's configuration, for its payload limit
     * @return the outbox
     */
    @Bean
    @ConditionalOnMissingBean
    public AnkusaOutbox ankusaOutbox(DataSource dataSource, AnkusaOutboxProperties properties,
            ObjectProvider<QueueConfig> queueConfig) {
        AnkusaOutbox.Builder builder = AnkusaOutbox.builder(dialect(dataSource, properties))
                .table(properties.getTable());
        queueConfig.ifAvailable(config -> builder.payloadMaxBytes(config.payloadMaxBytes()));
        if (properties.getNotify() != null) {
            builder.notify(properties.getNotify());
        }
        AnkusaOutbox outbox = builder.build();
        if (properties.isCreateTables()) {
            try (Connection connection = dataSource.getConnection()) {
                outbox.createTables(connection);
            } catch (SQLException e) {
                throw new IllegalStateException("could not connect to create the outbox tables: " + e.getMessage(), e);
            }
        }
        return outbox;
    }

    /**
     * The outbox's write side in the current Spring transaction.
     *
     * @param outbox     the outbox
     * @param dataSource the application's data source, the one its transactions run on
     * @return the transactional outbox
     */
    @Bean
    @ConditionalOnMissingBean
    public TransactionalOutbox ankusaTransactionalOutbox(AnkusaOutbox outbox, DataSource dataSource) {
        return new TransactionalOutbox(outbox, dataSource);
    }

    /**
     * The relay from the outbox table into the queue, started by {@link OutboxRelayLifecycle}.
     *
     * @param dataSource the application's data source
     * @param queue      the queue
     * @param outbox     the outbox, for its dialect and table
     * @param properties {@code ankusa.outbox.*}
     * @return the relay, not started
     */
    @Bean
    @ConditionalOnMissingBean
    public OutboxRelay ankusaOutboxRelay(DataSource dataSource, Queue queue, AnkusaOutbox outbox,
            AnkusaOutboxProperties properties) {
        OutboxRelay.Builder builder = OutboxRelay.builder(dataSource, queue, outbox.dialect()).table(outbox.table());
        if (properties.getListen() != null) {
            builder.listen(properties.getListen());
        }
        if (properties.getPollInterval() != null) {
            builder.pollInterval(properties.getPollInterval());
        }
        if (properties.getGapWait() != null) {
            builder.gapWait(properties.getGapWait());
        }
        if (properties.getTakeoverDelay() != null) {
            builder.takeoverDelay(properties.getTakeoverDelay());
        }
        if (properties.getBatchSize() != null) {
            builder.batchSize(properties.getBatchSize());
        }
        if (properties.getIngestTimeout() != null) {
            builder.ingestTimeout(properties.getIngestTimeout());
        }
        return builder.build();
    }

    /**
     * Starts the relay after the queue opens and stops it before the queue closes.
     *
     * @param relay the relay
     * @return its lifecycle
     */
    @Bean
    @ConditionalOnBean(OutboxRelay.class)
    @ConditionalOnMissingBean
    public OutboxRelayLifecycle ankusaOutboxRelayLifecycle(OutboxRelay relay) {
        return new OutboxRelayLifecycle(relay);
    }

    private static OutboxDialect dialect(DataSource dataSource, AnkusaOutboxProperties properties) {
        if (properties.getDialect() != null) {
            return properties.getDialect();
        }
        String product;
        try (Connection connection = dataSource.getConnection()) {
            product = connection.getMetaData().getDatabaseProductName();
        } catch (SQLException e) {
            throw new IllegalStateException("could not connect to find the outbox's dialect (or set "
                    + "ankusa.outbox.dialect): " + e.getMessage(), e);
        }
        String name = product == null ? "" : product.toLowerCase(Locale.ROOT);
        if (name.contains("postgresql")) {
            return OutboxDialect.POSTGRESQL;
        }
        if (name.contains("mysql") || name.contains("mariadb")) {
            return OutboxDialect.MYSQL;
        }
        throw new IllegalStateException("the outbox supports PostgreSQL, MySQL and MariaDB, not '" + product
                + "' (set ankusa.outbox.dialect if the database is one of them under another name)");
    }
}

package io.ankusa.spring.boot;

import io.ankusa.jdbc.AnkusaOutbox;
import io.ankusa.jdbc.OutboxDialect;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The outbox's settings, {@code ankusa.outbox.*}: those of {@link AnkusaOutbox.Builder} and
 * {@link io.ankusa.jdbc.OutboxRelay.Builder}. A setting left unset keeps the builder's default.
 */
@ConfigurationProperties("ankusa.outbox")
public class AnkusaOutboxProperties {

    /** Whether the outbox and its relay are configured (when ankusa-jdbc and a DataSource are present). */
    private boolean enabled = true;
    /** The database's SQL dialect; not set: taken from the DataSource's database product name. */
    private OutboxDialect dialect;
    /** The outbox table's name, also the queue's intake source for its rows. */
    private String table = AnkusaOutbox.DEFAULT_TABLE;
    /** Whether the outbox's tables are created at start if they do not exist (needs the right to create tables). */
    private boolean createTables;
    /** Whether an add notifies the relay on PostgreSQL (pg_notify); the builder's default is true. */
    private Boolean notify;
    /** Whether the relay LISTENs on the table's channel on PostgreSQL; the builder's default is true. */
    private Boolean listen;
    /** How long an idle relay waits before it reads the table again; the builder's default is 500ms. */
    private Duration pollInterval;
    /** How long the relay waits for a missing id before it passes it; the builder's default is 10s. */
    private Duration gapWait;
    /** How long a relay that took the lock waits before its first read; the builder's default is 2s. */
    private Duration takeoverDelay;
    /** The most rows one pass of the relay reads, ingests and deletes; the builder's default is 500. */
    private Integer batchSize;
    /** How long the relay waits for room in the queue's ingest queue; the builder's default is 5s. */
    private Duration ingestTimeout;

    /** Created by Spring. */
    public AnkusaOutboxProperties() {
    }

    /** {@return whether the outbox and its relay are configured} */
    public boolean isEnabled() {
        return enabled;
    }

    /** @param enabled whether the outbox and its relay are configured */
    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    /** {@return the dialect, or null to take it from the database} */
    public OutboxDialect getDialect() {
        return dialect;
    }

    /** @param dialect the database's SQL dialect */
    public void setDialect(OutboxDialect dialect) {
        this.dialect = dialect;
    }

    /** {@return the outbox table's name} */
    public String getTable() {
        return table;
    }

    /** @param table the outbox table's name, a lower-case SQL identifier */
    public void setTable(String table) {
        this.table = table;
    }

    /** {@return whether the tables are created at start} */
    public boolean isCreateTables() {
        return createTables;
    }

    /** @param createTables whether the tables are created at start */
    public void setCreateTables(boolean createTables) {
        this.createTables = createTables;
    }

    /** {@return whether an add notifies the relay, or null for the builder's default} */
    public Boolean getNotify() {
        return notify;
    }

    /** @param notify whether an add notifies the relay */
    public void setNotify(Boolean notify) {
        this.notify = notify;
    }

    /** {@return whether the relay listens for notifications, or null for the builder's default} */
    public Boolean getListen() {
        return listen;
    }

    /** @param listen whether the relay listens for notifications */
    public void setListen(Boolean listen) {
        this.listen = listen;
    }

    /** {@return the relay's polling interval, or null for the builder's default} */
    public Duration getPollInterval() {
        return pollInterval;
    }

    /** @param pollInterval the relay's polling interval */
    public void setPollInterval(Duration pollInterval) {
        this.pollInterval = pollInterval;
    }

    /** {@return the relay's gap wait, or null for the builder's default} */
    public Duration getGapWait() {
        return gapWait;
    }

    /** @param gapWait the relay's gap wait */
    public void setGapWait(Duration gapWait) {
        this.gapWait = gapWait;
    }

    /** {@return the relay's takeover delay, or null for the builder's default} */
    public Duration getTakeoverDelay() {
        return takeoverDelay;
    }

    /** @param takeoverDelay the relay's takeover delay */
    public void setTakeoverDelay(Duration takeoverDelay) {
        this.takeoverDelay = takeoverDelay;
    }

    /** {@return the relay's batch size, or null for the builder's default} */
    public Integer getBatchSize() {
        return batchSize;
    }

    /** @param batchSize the relay's batch size */
    public void setBatchSize(Integer batchSize) {
        this.batchSize = batchSize;
    }

    /** {@return the relay's ingest timeout, or null for the builder's default} */
    public Duration getIngestTimeout() {
        return ingestTimeout;
    }

    /** @param ingestTimeout the relay's ingest timeout */
    public void setIngestTimeout(Duration ingestTimeout) {
        this.ingestTimeout = ingestTimeout;
    }
}

package io.ankusa.spring.boot;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The delivery pipeline's settings, {@code ankusa.pipeline.*}: each is the
 * {@link io.ankusa.dispatch.Pipeline.Builder} method of the same name, with the builder's default
 * when not set.
 */
@ConfigurationProperties("ankusa.pipeline")
public class AnkusaPipelineProperties {

    /** Whether a pipeline is started (when the application has a sink). */
    private boolean enabled = true;
    /** Most rows claimed in one tick. */
    private Integer rowsPerTick;
    /** Most envelope bytes claimed in one tick. */
    private Long bytesPerTick;
    /** Envelope bytes a weight-1 tenant may claim per turn of fair dispatch. */
    private Long quantumBytes;
    /** Most deliveries under way at once. */
    private Integer concurrency;
    /** How long the pipeline waits between ticks when idle. */
    private Duration tickInterval;
    /** How long a sink has for one attempt; also how long a stop waits for attempts under way. */
    private Duration sinkDeadline;
    /** How often the gauges are measured. */
    private Duration gaugeInterval;

    /** {@return whether a pipeline is started} */
    public boolean isEnabled() {
        return enabled;
    }

    /** @param enabled whether a pipeline is started */
    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    /** {@return most rows claimed in one tick, or null for the default} */
    public Integer getRowsPerTick() {
        return rowsPerTick;
    }

    /** @param rowsPerTick most rows claimed in one tick */
    public void setRowsPerTick(Integer rowsPerTick) {
        this.rowsPerTick = rowsPerTick;
    }

    /** {@return most envelope bytes claimed in one tick, or null for the default} */
    public Long getBytesPerTick() {
        return bytesPerTick;
    }

    /** @param bytesPerTick most envelope bytes claimed in one tick */
    public void setBytesPerTick(Long bytesPerTick) {
        this.bytesPerTick = bytesPerTick;
    }

    /** {@return envelope bytes a weight-1 tenant may claim per turn, or null for the default} */
    public Long getQuantumBytes() {
        return quantumBytes;
    }

    /** @param quantumBytes envelope bytes a weight-1 tenant may claim per turn of fair dispatch */
    public void setQuantumBytes(Long quantumBytes) {
        this.quantumBytes = quantumBytes;
    }

    /** {@return most deliveries under way at once, or null for the default} */
    public Integer getConcurrency() {
        return concurrency;
    }

    /** @param concurrency most deliveries under way at once */
    public void setConcurrency(Integer concurrency) {
        this.concurrency = concurrency;
    }

    /** {@return the idle wait between ticks, or null for the default} */
    public Duration getTickInterval() {
        return tickInterval;
    }

    /** @param tickInterval the idle wait between ticks */
    public void setTickInterval(Duration tickInterval) {
        this.tickInterval = tickInterval;
    }

    /** {@return the sink deadline, or null for the default} */
    public Duration getSinkDeadline() {
        return sinkDeadline;
    }

    /** @param sinkDeadline the sink deadline */
    public void setSinkDeadline(Duration sinkDeadline) {
        this.sinkDeadline = sinkDeadline;
    }

    /** {@return how often the gauges are measured, or null for the default} */
    public Duration getGaugeInterval() {
        return gaugeInterval;
    }

    /** @param gaugeInterval how often the gauges are measured */
    public void setGaugeInterval(Duration gaugeInterval) {
        this.gaugeInterval = gaugeInterval;
    }
}

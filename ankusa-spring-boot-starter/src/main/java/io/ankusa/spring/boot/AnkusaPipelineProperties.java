package io.ankusa.spring.boot;

import java.time.Duration;
import java.util.Objects;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.DeprecatedConfigurationProperty;
import org.springframework.boot.context.properties.bind.BindResult;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.Environment;

/**
 * The delivery pipeline's settings, {@code ankusa.pipeline.*}: each is the
 * {@link io.ankusa.dispatch.Pipeline.Builder} method of the same name, with the builder's default
 * when not set.
 */
@ConfigurationProperties(AnkusaPipelineProperties.PREFIX)
public class AnkusaPipelineProperties {

    /** The prefix of these properties. */
    static final String PREFIX = "ankusa.pipeline";

    /**
     * What the node does with the hooks it stores: deliver builds and starts a pipeline
     * over the application's Sink or EndpointResolver bean (the start fails, saying
     * what to add, when it has neither); ingest-only builds none and logs one INFO line
     * saying so (another node, or a later start, delivers).
     */
    private Mode mode = Mode.DELIVER;
    /** Deprecated: false is ankusa.pipeline.mode=ingest-only; not set, the mode decides. */
    private Boolean enabled;
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

    /** What a node does with the hooks it stores: deliver them, or only store them. */
    public enum Mode {
        /** Build and start a pipeline over the application's sink; fail the start when there is none. */
        DELIVER,
        /** Build no pipeline: the node stores hooks and delivers none. */
        INGEST_ONLY
    }

    /** {@return what the node does with the hooks it stores, as set (the deprecated enabled=false aside)} */
    public Mode getMode() {
        return mode;
    }

    /** @param mode what the node does with the hooks it stores */
    public void setMode(Mode mode) {
        this.mode = Objects.requireNonNull(mode, "mode");
    }

    /**
     * {@return whether a pipeline is started, or null when not set}
     *
     * @deprecated {@code ankusa.pipeline.enabled=false} is {@code ankusa.pipeline.mode=ingest-only}
     */
    @Deprecated
    @DeprecatedConfigurationProperty(replacement = "ankusa.pipeline.mode",
            reason = "ankusa.pipeline.mode names both choices: deliver or ingest-only")
    public Boolean getEnabled() {
        return enabled;
    }

    /**
     * @param enabled whether a pipeline is started
     * @deprecated set {@code ankusa.pipeline.mode} instead
     */
    @Deprecated
    public void setEnabled(Boolean enabled) {
        this.enabled = enabled;
    }

    /**
     * The node's mode as {@code environment} sets it: {@code ankusa.pipeline.mode}, or
     * {@code ingest-only} when the deprecated {@code ankusa.pipeline.enabled} is {@code false}.
     * Read by the auto-configuration's conditions, before the properties are bound.
     *
     * @param environment where the properties are
     * @return the mode
     * @throws IllegalStateException when {@code ankusa.pipeline.enabled=false} and
     *         {@code ankusa.pipeline.mode=deliver} are both set
     */
    static Mode mode(Environment environment) {
        Binder binder = Binder.get(environment);
        BindResult<Mode> mode = binder.bind(PREFIX + ".mode", Mode.class);
        boolean disabled = !binder.bind(PREFIX + ".enabled", Boolean.class).orElse(true);
        if (disabled && mode.isBound() && mode.get() == Mode.DELIVER) {
            throw new IllegalStateException(PREFIX + ".enabled=false contradicts " + PREFIX
                    + ".mode=deliver: set only " + PREFIX + ".mode (ingest-only or deliver)");
        }
        return disabled ? Mode.INGEST_ONLY : mode.orElse(Mode.DELIVER);
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

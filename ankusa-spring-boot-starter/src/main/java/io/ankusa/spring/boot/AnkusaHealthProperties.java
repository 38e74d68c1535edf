package io.ankusa.spring.boot;

import io.ankusa.dispatch.HealthLimits;
import java.time.Duration;
import java.util.Optional;
import org.springframework.boot.context.properties.ConfigurationProperties;

/** The health indicator's settings, {@code ankusa.health.*}. */
@ConfigurationProperties("ankusa.health")
public class AnkusaHealthProperties {

    /** Whether the ankusa health indicator is registered (when Spring Boot's health support is present). */
    private boolean enabled = true;
    /**
     * How long the oldest delivery the node should be delivering now may have been due before the
     * node reports DOWN (dispatch is not keeping up). Rows held back by design (tenant limits,
     * disabled, paused or breaker-open endpoints) are left out. Not set: the age is reported, never
     * judged.
     */
    private Duration maxOldestDueAge;
    /** How long a started pipeline's tick loop may go without ending a tick before the node reports DOWN. */
    private Duration maxTickSilence = HealthLimits.DEFAULTS.maxTickSilence();
    /**
     * How long the sink may give no outcome, while its attempts run out the pipeline's sink deadline,
     * before the node reports DOWN.
     */
    private Duration maxSinkSilence = HealthLimits.DEFAULTS.maxSinkSilence();

    /** {@return whether the indicator is registered} */
    public boolean isEnabled() {
        return enabled;
    }

    /** @param enabled whether the indicator is registered */
    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    /** {@return the oldest deliverable age past which the node is DOWN, or null for none} */
    public Duration getMaxOldestDueAge() {
        return maxOldestDueAge;
    }

    /** @param maxOldestDueAge the oldest deliverable age past which the node is DOWN */
    public void setMaxOldestDueAge(Duration maxOldestDueAge) {
        this.maxOldestDueAge = maxOldestDueAge;
    }

    /** {@return how long the tick loop may go without ending a tick} */
    public Duration getMaxTickSilence() {
        return maxTickSilence;
    }

    /** @param maxTickSilence how long the tick loop may go without ending a tick */
    public void setMaxTickSilence(Duration maxTickSilence) {
        this.maxTickSilence = maxTickSilence;
    }

    /** {@return how long the sink may give no outcome while attempts run out the deadline} */
    public Duration getMaxSinkSilence() {
        return maxSinkSilence;
    }

    /** @param maxSinkSilence how long the sink may give no outcome while attempts run out the deadline */
    public void setMaxSinkSilence(Duration maxSinkSilence) {
        this.maxSinkSilence = maxSinkSilence;
    }

    /** {@return these settings as the limits {@link io.ankusa.dispatch.NodeHealth} judges by} */
    public HealthLimits limits() {
        return new HealthLimits(Optional.ofNullable(maxOldestDueAge), maxTickSilence, maxSinkSilence);
    }
}

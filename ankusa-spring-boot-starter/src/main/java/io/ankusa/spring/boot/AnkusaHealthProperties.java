package io.ankusa.spring.boot;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/** The health indicator's settings, {@code ankusa.health.*}. */
@ConfigurationProperties("ankusa.health")
public class AnkusaHealthProperties {

    /** Whether the {@code ankusa} health indicator is registered (when Spring Boot's health support is present). */
    private boolean enabled = true;
    /**
     * The oldest due delivery's age past which the queue reports DOWN (dispatch is not keeping up);
     * not set: the age is reported but never judged.
     */
    private Duration maxOldestDueAge;

    /** {@return whether the indicator is registered} */
    public boolean isEnabled() {
        return enabled;
    }

    /** @param enabled whether the indicator is registered */
    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    /** {@return the oldest due age past which the queue is DOWN, or null for none} */
    public Duration getMaxOldestDueAge() {
        return maxOldestDueAge;
    }

    /** @param maxOldestDueAge the oldest due age past which the queue is DOWN */
    public void setMaxOldestDueAge(Duration maxOldestDueAge) {
        this.maxOldestDueAge = maxOldestDueAge;
    }
}

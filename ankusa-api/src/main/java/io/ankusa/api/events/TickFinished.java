package io.ankusa.api.events;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * A dispatch tick handed what it claimed to the sinks (ticks held back because every sink slot was
 * busy publish nothing).
 *
 * @param startedAt the tick's "now"
 * @param tenants   distinct tenants the tick visited
 * @param rows      rows it claimed (including rows dropped because their hook was gone)
 * @param duration  the tick's own time on its thread: planning, claim, marker cleanup, hand-over
 */
public record TickFinished(Instant startedAt, int tenants, int rows, Duration duration) {

    /**
     * Validates.
     *
     * @param startedAt the tick's "now"
     * @param tenants distinct tenants the tick visited
     * @param rows rows it claimed (including rows dropped because their hook was gone)
     * @param duration the tick's own time on its thread: planning, claim, marker cleanup, hand-over
     */
    public TickFinished {
        Objects.requireNonNull(startedAt, "startedAt");
        Objects.requireNonNull(duration, "duration");
        if (tenants < 0 || rows < 0) {
            throw new IllegalArgumentException("counts must not be negative");
        }
    }
}

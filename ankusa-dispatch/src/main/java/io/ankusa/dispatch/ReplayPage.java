package io.ankusa.dispatch;

import java.util.Objects;
import java.util.Optional;

/**
 * What replaying one page of the node's dead letters did.
 *
 * @param revived how many dead rows became due again
 * @param next    where the next (older) page starts; empty when this page reached the oldest
 */
public record ReplayPage(int revived, Optional<DeadLetterPosition> next) {

    /** Validates. */
    public ReplayPage {
        Objects.requireNonNull(next, "next");
        if (revived < 0) {
            throw new IllegalArgumentException("revived must not be negative: " + revived);
        }
    }
}

package io.ankusa.api;

import java.util.List;
import java.util.Optional;

/**
 * One page of the attempt history, newest first.
 *
 * @param attempts the attempts of this page, newest first
 * @param hasMore  whether older attempts matched the query when the page was read
 */
public record AttemptPage(List<DeliveryAttempt> attempts, boolean hasMore) {

    /**
     * Copies the list.
     *
     * @param attempts the attempts of this page, newest first
     * @param hasMore whether older attempts matched the query when the page was read
     */
    public AttemptPage {
        attempts = List.copyOf(attempts);
        if (hasMore && attempts.isEmpty()) {
            throw new IllegalArgumentException("an empty page cannot have more");
        }
    }

    /** {@return the cursor to read the next page with, if there is more} */
    public Optional<AttemptCursor> next() {
        return hasMore ? Optional.of(attempts.get(attempts.size() - 1).cursor()) : Optional.empty();
    }
}

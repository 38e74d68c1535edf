package io.ankusa.api;

import java.util.List;
import java.util.Optional;

/**
 * One page of dead letters, newest first.
 *
 * @param letters the letters of this page, newest first
 * @param hasMore whether older letters matched the query when the page was read
 */
public record DeadLetterPage(List<DeadLetter> letters, boolean hasMore) {

    /**
     * Copies the list.
     *
     * @param letters the letters of this page, newest first
     * @param hasMore whether older letters matched the query when the page was read
     */
    public DeadLetterPage {
        letters = List.copyOf(letters);
        if (hasMore && letters.isEmpty()) {
            throw new IllegalArgumentException("an empty page cannot have more");
        }
    }

    /** {@return the cursor to read the next page with, if there is more} */
    public Optional<DeadLetterCursor> next() {
        return hasMore ? Optional.of(letters.get(letters.size() - 1).cursor()) : Optional.empty();
    }
}

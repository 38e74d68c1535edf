package io.ankusa.dispatch;

import io.ankusa.api.DeadLetter;
import io.ankusa.api.DeadLetterCursor;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One page of a {@link DeadLetterFilter}: the matching letters, newest first, how many letters the
 * page read to find them (at most {@value DeadLetterFilter#MAX_EXAMINED}), and the cursor to resume
 * from. A page that stopped at its examination bound has a next cursor even when it found few
 * letters or none.
 *
 * @param letters  the matching letters, newest first
 * @param examined how many letters the page read, matching or not
 * @param next     where the next page starts; empty when the walk reached its end
 */
public record FilteredDeadLetters(List<DeadLetter> letters, int examined, Optional<DeadLetterCursor> next) {

    /**
     * Copies the list and checks the count.
     *
     * @param letters  the matching letters, newest first
     * @param examined how many letters the page read, matching or not
     * @param next     where the next page starts; empty when the walk reached its end
     */
    public FilteredDeadLetters {
        letters = List.copyOf(letters);
        Objects.requireNonNull(next, "next");
        if (examined < letters.size()) {
            throw new IllegalArgumentException("examined " + examined + " < matched " + letters.size());
        }
    }
}

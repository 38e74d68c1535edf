package io.ankusa.api.events;

import java.util.Objects;

/**
 * A stored record that does not decode was moved into the quarantine, where an operator can list
 * it; nothing was deleted. The queue publishes it when a claim meets a record that does not decode.
 *
 * @param family the kind of record: {@code hook} or {@code delivery}
 * @param seq    the hook's sequence number
 * @param sink   the sink index, or -1 for a hook
 * @param reason why it does not decode
 */
public record Quarantined(String family, long seq, int sink, String reason) {

    /**
     * Validates.
     *
     * @param family the kind of record: {@code hook} or {@code delivery}
     * @param seq the hook's sequence number
     * @param sink the sink index of the quarantined delivery
     * @param reason why it does not decode
     */
    public Quarantined {
        Objects.requireNonNull(family, "family");
        Objects.requireNonNull(reason, "reason");
    }
}

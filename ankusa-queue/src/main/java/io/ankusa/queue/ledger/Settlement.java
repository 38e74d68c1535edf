package io.ankusa.queue.ledger;

import java.util.Objects;

/** How one inflight delivery ended; {@link DeliveryLedger#settle} commits many in one batch. */
public sealed interface Settlement {

    /** The inflight row settled. */
    InflightRow row();

    /** The sink took it: the delivery row is removed. */
    record Delivered(InflightRow row) implements Settlement {
        /** Checks the row. */
        public Delivered {
            Objects.requireNonNull(row, "row");
        }
    }

    /**
     * Try again at {@code nextAt}: the row becomes due again as a retry (kind 1).
     *
     * @param delivery the claimed delivery
     * @param nextAt   when to try again, epoch milliseconds
     * @param error    why this attempt failed
     */
    record Retry(ClaimedDelivery delivery, long nextAt, String error) implements Settlement {
        /** Checks the fields. */
        public Retry {
            Objects.requireNonNull(delivery, "delivery");
            Objects.requireNonNull(error, "error");
            if (nextAt < 0) {
                throw new IllegalArgumentException("nextAt must be >= 0: " + nextAt);
            }
        }

        @Override
        public InflightRow row() {
            return delivery.row();
        }
    }

    /**
     * Give up: the row moves to the DLQ.
     *
     * @param delivery the claimed delivery
     * @param reason   why it is dead
     */
    record Dead(ClaimedDelivery delivery, String reason) implements Settlement {
        /** Checks the fields. */
        public Dead {
            Objects.requireNonNull(delivery, "delivery");
            Objects.requireNonNull(reason, "reason");
        }

        @Override
        public InflightRow row() {
            return delivery.row();
        }
    }

    /** The hook is gone: the row is dropped (a stored hook that does not decode is never dropped: the claim fails). */
    record Orphan(InflightRow row) implements Settlement {
        /** Checks the row. */
        public Orphan {
            Objects.requireNonNull(row, "row");
        }
    }
}

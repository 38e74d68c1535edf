package io.ankusa.tests.operator;

import io.ankusa.queue.ledger.Claim;
import io.ankusa.queue.ledger.ClaimedDelivery;
import io.ankusa.queue.ledger.DeliveryLedger;
import io.ankusa.tests.queue.QueueUnderTest;
import java.util.List;

/** What the dispatcher would do, in test-sized steps: claim a tenant's due rows, dead-letter or deliver them. */
final class Operations {

    private Operations() {
    }

    /** Claims up to {@code n} of {@code tenant}'s due rows. */
    static List<ClaimedDelivery> claim(QueueUnderTest q, String tenant, int n) {
        long ord = q.ord(tenant).orElseThrow();
        DeliveryLedger ledger = q.ledger();
        Claim claim = ledger.claim(ord, ledger.dueForTenant(ord, q.clock().millis(), 0, n, Long.MAX_VALUE));
        return claim.claimed();
    }

    /** Claims and dead-letters up to {@code n} of {@code tenant}'s due rows, one millisecond apart; returns how many. */
    static int deadLetter(QueueUnderTest q, String tenant, int n) {
        List<ClaimedDelivery> claimed = claim(q, tenant, n);
        for (ClaimedDelivery d : claimed) {
            q.clock().advance(1);
            q.ledger().dead(d, "HTTP 410 from " + d.hookId());
        }
        return claimed.size();
    }

    /** Claims and delivers up to {@code n} of {@code tenant}'s due rows; returns how many. */
    static int deliver(QueueUnderTest q, String tenant, int n) {
        List<ClaimedDelivery> claimed = claim(q, tenant, n);
        claimed.forEach(d -> q.ledger().delivered(d.row()));
        return claimed.size();
    }

    /**
     * Claims and delivers up to {@code n} of {@code tenant}'s due rows, recording each attempt in the
     * attempt history (a 200, 1.5 ms) in its settle batch; returns how many.
     */
    static int deliverWithHistory(QueueUnderTest q, String tenant, int n) {
        List<ClaimedDelivery> claimed = claim(q, tenant, n);
        for (ClaimedDelivery d : claimed) {
            q.ledger().settle(List.of(new io.ankusa.queue.ledger.Settlement.Delivered(d.row())),
                    List.of(new io.ankusa.queue.ledger.AttemptRecord(d.row(), d.hookId(), d.attempt(), q.clock().millis(),
                            io.ankusa.api.events.AttemptOutcome.DELIVERED, java.util.OptionalInt.of(200), 1_500,
                            io.ankusa.api.AttemptErrorClass.NONE, "")));
        }
        return claimed.size();
    }
}

package io.ankusa.admin.ingest;

import io.ankusa.api.Hook;
import io.ankusa.api.Receipt;
import io.ankusa.api.StoredHook;
import io.ankusa.queue.Queue;
import java.util.Arrays;
import java.util.Optional;

/**
 * What a receipt stands for. The edge gives every hook its id as idempotency key, so a repeat of an
 * id within the queue's dedupe window gets the first hook's receipt and writes nothing. The hook
 * stored under the receipt's seq (one point read) tells which: it carries the trace context of the
 * request that wrote it ({@link RequestTrace}, unique per request), so the same context is this
 * request's new hook; the same content under another context is a repeat; other content is another
 * hook under the same id. A hook no longer stored (all its deliveries ended already) is a repeat: the
 * edge cannot show it new, and either answer means the hook is queued. A hook with an event type no
 * endpoint subscribes to is never stored: its commit's receipt names no sink ({@link Receipt#noDeliveries()},
 * which a repeat's receipt never does), so that receipt is this request's new hook, and a later
 * request under its id is a repeat. A stored hook with an event type holds the sinks it fanned out
 * to, so it is compared with a posted one by the type, not by the sinks.
 */
enum ReceiptVerdict {
    /** This request's hook, newly queued. */
    NEW,
    /** The same hook, queued by an earlier request. */
    REPEAT,
    /** Another hook holds the id. */
    CONFLICT;

    static ReceiptVerdict of(Queue queue, Hook posted, Receipt receipt) {
        Optional<Hook> stored = queue.hook(receipt.tenantId(), receipt.seq()).flatMap(StoredHook::hook);
        if (stored.isEmpty()) {
            return receipt.noDeliveries() ? NEW : REPEAT;
        }
        Hook held = stored.get();
        if (held.traceContext().equals(posted.traceContext())) {
            return NEW;
        }
        return sameContent(held, posted) ? REPEAT : CONFLICT;
    }

    private static boolean sameContent(Hook a, Hook b) {
        return a.id().equals(b.id()) && a.sourceId().equals(b.sourceId()) && a.tenant().equals(b.tenant())
                && a.headers().equals(b.headers()) && Arrays.equals(a.payload(), b.payload())
                && sameAddress(a, b) && a.orderingKey().equals(b.orderingKey());
    }

    /** The same event type, or for hooks without one the same sinks. */
    private static boolean sameAddress(Hook held, Hook posted) {
        return held.eventType().equals(posted.eventType())
                && (posted.eventType().isPresent() || held.sinks().equals(posted.sinks()));
    }
}

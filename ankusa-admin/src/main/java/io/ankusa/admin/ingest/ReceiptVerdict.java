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
 * edge cannot show it new, and either answer means the hook is queued.
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
            return REPEAT;
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
                && a.sinks().equals(b.sinks()) && a.orderingKey().equals(b.orderingKey());
    }
}

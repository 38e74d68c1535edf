package io.ankusa.kafka;

import io.ankusa.api.DeadLetter;
import io.ankusa.api.DeadLetterCursor;
import io.ankusa.api.DeadLetterPage;
import io.ankusa.api.DeadLetterQuery;
import io.ankusa.api.Hook;
import io.ankusa.api.Receipt;
import io.ankusa.queue.Queue;
import io.ankusa.queue.ledger.Claim;
import io.ankusa.queue.ledger.ClaimedDelivery;
import io.ankusa.queue.ledger.DeliveryLedger;
import io.ankusa.queue.ledger.DueRow;
import io.ankusa.queue.ledger.LedgerSource;
import io.ankusa.queue.ledger.Settlement;
import io.ankusa.queue.ledger.TenantDirectory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Restores a partition's dead letters from the dead-letter topic into a store that does not hold
 * them (a node taking the partition over without the previous owner's store), before the
 * partition's pipeline starts.
 *
 * <p>Each hook is ingested again with the sinks of its dead letters only and without its
 * idempotency key (the restored copy must not answer for, nor be answered by, another ingest),
 * then its rows are claimed and settled dead in the store, with the letter's attempt count and
 * last error; the restored letter's dead-lettered time is the restore's. A letter whose hook is at
 * or after the offset the node resumes reading from is not restored: its hook is read and
 * delivered again (the duplicate window), and the node tombstones the letter instead; unless the
 * settles topic names that delivery dead ({@code settledDead}, by {@link SettleRecord#key}): the
 * node skips it at intake, so the letter is restored.
 */
final class DeadLetterRestore {

    private static final Logger LOG = LoggerFactory.getLogger(DeadLetterRestore.class);
    private static final int PAGE = 500;

    /**
     * What a restore did.
     *
     * @param restored    letters restored into the store
     * @param reread      keys of letters not restored because their hook is read again (to tombstone)
     * @param unrestorable letters the topic holds without their hook (logged, left in the topic)
     */
    record Result(int restored, List<String> reread, int unrestorable) {
    }

    private DeadLetterRestore() {
    }

    static Result restore(Queue queue, Collection<DeadLetterRecord> records, long resumeAt, Duration wait,
            Set<String> settledDead) {
        Set<String> inStore = keys(queue);
        Map<List<Object>, List<DeadLetterRecord>> byHook = new LinkedHashMap<>();
        List<String> reread = new ArrayList<>();
        int unrestorable = 0;
        for (DeadLetterRecord record : records) {
            if (inStore.contains(record.key())) {
                continue;
            }
            boolean skipped = record.offset() >= 0
                    && settledDead.contains(SettleRecord.key(record.offset(), record.letter().sink()));
            if (record.offset() >= resumeAt && !skipped) {
                reread.add(record.key());
            } else if (record.hook().isEmpty()) {
                unrestorable++;
                LOG.error("dead letter {} of hook {}/{} sink {} is in the dead-letter topic without its hook: not "
                        + "restored",
                        record.letter().seq(), record.letter().tenantId(), record.letter().hookId(),
                        record.letter().sink());
            } else {
                DeadLetter l = record.letter();
                byHook.computeIfAbsent(List.of(l.tenantId(), l.sourceId(), l.hookId(), l.seq()), k -> new ArrayList<>())
                        .add(record);
            }
        }
        if (byHook.isEmpty()) {
            return new Result(0, reread, unrestorable);
        }
        List<List<DeadLetterRecord>> hooks = new ArrayList<>(byHook.values());
        List<CompletableFuture<Receipt>> receipts = new ArrayList<>(hooks.size());
        for (List<DeadLetterRecord> letters : hooks) {
            Hook stored = letters.get(0).hook().orElseThrow();
            Hook.Builder copy = Hook.builder().id(stored.id()).sourceId(stored.sourceId()).headers(stored.headers())
                    .payload(stored.payload()).sinks(letters.stream().map(r -> r.letter().sink()).distinct().toList());
            stored.tenantId().ifPresent(copy::tenantId);
            stored.traceContext().ifPresent(copy::traceContext);
            receipts.add(queue.ingest(copy.build(), wait));
        }
        // seq of the restored copy -> its letters; by tenant ordinal.
        Map<Long, Map<Long, List<DeadLetterRecord>>> byTenant = new HashMap<>();
        TenantDirectory tenants = LedgerSource.of(queue).tenantDirectory();
        for (int i = 0; i < hooks.size(); i++) {
            Receipt receipt = receipts.get(i).join();
            String tenant = hooks.get(i).get(0).letter().tenantId();
            long ord = tenants.ord(tenant)
                    .orElseThrow(() -> new IllegalStateException("restored tenant " + tenant + " has no ordinal"));
            byTenant.computeIfAbsent(ord, o -> new HashMap<>()).put(receipt.seq(), hooks.get(i));
        }
        DeliveryLedger ledger = LedgerSource.of(queue).deliveryLedger();
        int restored = 0;
        for (Map.Entry<Long, Map<Long, List<DeadLetterRecord>>> tenant : byTenant.entrySet()) {
            restored += deadLetter(ledger, tenant.getKey(), tenant.getValue());
        }
        return new Result(restored, reread, unrestorable);
    }

    /** Claims the restored copies' rows of tenant {@code ord} and settles them dead, as their letters say. */
    private static int deadLetter(DeliveryLedger ledger, long ord, Map<Long, List<DeadLetterRecord>> bySeq) {
        List<DueRow> rows = new ArrayList<>();
        Optional<DueRow> after = Optional.empty();
        while (true) {
            List<DueRow> page = after.isEmpty() ? ledger.dueForTenant(ord, Long.MAX_VALUE, 0, PAGE, Long.MAX_VALUE)
                    : ledger.dueForTenantAfter(ord, Long.MAX_VALUE, after.get(), PAGE, Long.MAX_VALUE);
            page.stream().filter(r -> bySeq.containsKey(r.seq())).forEach(rows::add);
            if (page.size() < PAGE) {
                break;
            }
            after = Optional.of(page.get(page.size() - 1));
        }
        int restored = 0;
        for (int from = 0; from < rows.size(); from += PAGE) {
            Claim claim = ledger.claim(ord, rows.subList(from, Math.min(rows.size(), from + PAGE)));
            List<Settlement> settlements = new ArrayList<>();
            for (ClaimedDelivery claimed : claim.claimed()) {
                DeadLetter letter = bySeq.get(claimed.row().seq()).stream().map(DeadLetterRecord::letter)
                        .filter(l -> l.sink() == claimed.sink()).findFirst().orElseThrow();
                ClaimedDelivery asAttempted = new ClaimedDelivery(claimed.row(), claimed.tenantId(), claimed.hookId(),
                        claimed.sourceId(), claimed.headers(), claimed.payload(), claimed.receivedAt(),
                        Math.max(1, letter.attempts()), claimed.trace(), claimed.outOfOrder());
                settlements.add(new Settlement.Dead(asAttempted, letter.lastError()));
            }
            ledger.settle(settlements);
            restored += settlements.size();
        }
        return restored;
    }

    /** The keys of every dead letter in the store. */
    static Set<String> keys(Queue queue) {
        Set<String> keys = new HashSet<>();
        Optional<DeadLetterCursor> after = Optional.empty();
        while (true) {
            DeadLetterQuery query = DeadLetterQuery.all().limit(PAGE);
            DeadLetterPage page = queue.deadLetters(after.isPresent() ? query.after(after.get()) : query);
            page.letters().forEach(l -> keys.add(DeadLetterRecord.key(l)));
            if (!page.hasMore()) {
                return keys;
            }
            after = page.next();
        }
    }
}

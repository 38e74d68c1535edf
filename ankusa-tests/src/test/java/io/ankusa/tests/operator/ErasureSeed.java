package io.ankusa.tests.operator;

import io.ankusa.api.Hook;
import io.ankusa.api.Receipt;
import io.ankusa.queue.ledger.Claim;
import io.ankusa.queue.ledger.DueRow;
import io.ankusa.tests.queue.QueueUnderTest;
import io.ankusa.tests.queue.StoreSnapshot;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The store an erase is tested on: two tenants with due, delivered, dead, inflight and quarantined
 * rows, attempt history (of the delivered rows), archive obligations, idempotency keys and a
 * disabled endpoint (open the queue with {@code archive(true)}); and how
 * to read it back. Deterministic: two stores seeded alike on the same backend are byte-identical.
 */
public final class ErasureSeed {

    /** The tenant that is erased. */
    public static final String VICTIM = "victim-7Qz";
    /** The tenant that must not change. */
    public static final String OTHER = "other-tenant";

    /** Who owns each seq, and each tenant's ordinal, as seeded. */
    public static final class Seeded {
        final Map<Long, Long> ownerOfSeq = new HashMap<>();
        final Map<String, Long> ordOfName = new HashMap<>();

        /** {@return the ordinal {@code tenant} was given} */
        public long ord(String tenant) {
            return ordOfName.get(tenant);
        }
    }

    private ErasureSeed() {
    }

    /**
     * Both tenants with due, retry-free first attempts, delivered (cleared markers, hooks waiting for
     * reclaim), dead and inflight rows, one quarantined row ({@code ?Q}: a hook whose stored bytes
     * do not decode, moved aside by its claim), archive obligations and idempotency keys.
     */
    public static Seeded seed(QueueUnderTest q) {
        Seeded seeded = new Seeded();
        int n = 0;
        for (String tenant : List.of(VICTIM, OTHER)) {
            for (int i = 0; i < 10; i++) {
                Hook hook = Hook.builder().id(tenant + "-h" + n).sourceId("src").tenantId(tenant)
                        .idempotencyKey("k" + n).payload("{\"n\":" + n + "}").sinks(i % 3 == 0 ? List.of(0) : List.of(0, 1))
                        .build();
                n++;
                Receipt r = q.ingest(hook);
                seeded.ordOfName.put(tenant, q.ord(tenant).orElseThrow());
                seeded.ownerOfSeq.put(r.seq(), seeded.ordOfName.get(tenant));
            }
            Operations.deliverWithHistory(q, tenant, 3);
            Operations.deadLetter(q, tenant, 3);
            Operations.claim(q, tenant, 2);
            Receipt damaged = q.ingest(Hook.builder().id(tenant + "-undecodable").sourceId("src").tenantId(tenant)
                    .payload("{\"n\":" + n + "}").sinks(0).build());
            n++;
            seeded.ownerOfSeq.put(damaged.seq(), seeded.ordOfName.get(tenant));
            quarantine(q, tenant, damaged.seq());
            // A stored endpoint state (?E): erasure removes the victim's, leaves the other's.
            q.queue().disableEndpoint(tenant, 1);
        }
        return seeded;
    }

    /** Damages hook {@code seq}'s stored bytes (same length, undecodable) and claims its row: the claim quarantines it. */
    private static void quarantine(QueueUnderTest q, String tenant, long seq) {
        q.damageHook(seq);
        long ord = q.ord(tenant).orElseThrow();
        List<DueRow> row = q.ledger().dueForTenant(ord, q.clock().millis(), 0, Integer.MAX_VALUE, Long.MAX_VALUE).stream()
                .filter(r -> r.seq() == seq).toList();
        Claim claim = q.ledger().claim(ord, row);
        if (claim.quarantined().size() != 1 || !claim.claimed().isEmpty()) {
            throw new IllegalStateException("the damaged hook " + seq + " was not quarantined: " + claim);
        }
    }

    /** Every entry of the store, family by family, that carries tenant {@code ord} (keys and values, hex). */
    public static List<String> rowsOf(QueueUnderTest q, Seeded seeded, long ord) {
        return TenantRows.of(q.store(), Set.of(ord), seq -> seeded.ownerOfSeq.getOrDefault(seq, -1L),
                seeded.ordOfName);
    }

    /** Every entry of the store but the audit trail's (which is time-stamped). */
    public static List<String> withoutAudit(QueueUnderTest q) {
        return StoreSnapshot.of(q.store()).stream().filter(line -> !line.startsWith("audit ")).toList();
    }
}

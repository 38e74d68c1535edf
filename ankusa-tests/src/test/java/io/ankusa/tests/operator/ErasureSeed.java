package io.ankusa.tests.operator;

import io.ankusa.api.Hook;
import io.ankusa.api.Receipt;
import io.ankusa.tests.queue.QueueUnderTest;
import io.ankusa.tests.queue.StoreSnapshot;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The store an erase is tested on: two tenants with due, delivered, dead and inflight rows,
 * archive obligations, idempotency keys and a disabled endpoint (open the queue with {@code archive(true)}); and how
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
     * reclaim), dead and inflight rows, archive obligations and idempotency keys.
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
            Operations.deliver(q, tenant, 3);
            Operations.deadLetter(q, tenant, 3);
            Operations.claim(q, tenant, 2);
            // A stored endpoint state (?E): erasure removes the victim's, leaves the other's.
            q.queue().disableEndpoint(tenant, 1);
        }
        return seeded;
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

package io.ankusa.queue.engine;

import io.ankusa.api.DeadLetter;
import io.ankusa.api.DeadLetterPage;
import io.ankusa.api.DeadLetterQuery;
import io.ankusa.keys.ColumnFamilies;
import io.ankusa.keys.DeadKey;
import io.ankusa.keys.DeliveryKey;
import io.ankusa.keys.Ordinals;
import io.ankusa.keys.TenantByOrdKey;
import io.ankusa.queue.deliveries.DeliveryRow;
import io.ankusa.queue.deliveries.DeadIndex;
import io.ankusa.queue.deliveries.DeadIndex.DeadRowScan;
import io.ankusa.queue.ledger.DeadEntry;
import io.ankusa.queue.ledger.DeadRow;
import io.ankusa.queue.ledger.DeliveryLedger;
import io.ankusa.queue.intake.TenantOrdinals;
import io.ankusa.store.Store;
import io.ankusa.store.StoreCorruptionException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.PriorityQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Dead-letter pages, newest first by (at, seq, sink), never reading a hook.
 *
 * <ul>
 * <li><b>All tenants:</b> one reverse scan of the global {@link io.ankusa.keys.DeadKey ?x} family from the cursor; each
 *     {@link io.ankusa.keys.DeadKey ?x} value carries the owner's ordinal, the source id and the hook id. The page's
 *     distinct ordinals are named with one multi-get of {@link io.ankusa.keys.TenantByOrdKey ?t}.</li>
 * <li><b>Some tenants:</b> per tenant, one reverse scan of its {@link io.ankusa.keys.DeadByTenantKey ?X}
 * range from the cursor
 *     (a tenant the queue never saw costs a name lookup and no scan); the scans are merged newest
 *     first, and the page's keys are joined to their {@link io.ankusa.keys.DeadKey ?x} values through (at,
 *     seq, sink) with
 *     one multi-get. The cost is the page, not the DLQ: other tenants' dead rows are never read.</li>
 * </ul>
 * Either way the attempts and last error come from one multi-get of the page's delivery rows.
 * One more entry than the limit is read to know whether the listing goes on.
 */
final class DeadLetters {

    private static final Logger LOG = LoggerFactory.getLogger(DeadLetters.class);

    private static final Comparator<DeadRow> NEWEST_FIRST = Comparator.comparingLong(DeadRow::at)
            .thenComparingLong(DeadRow::seq).thenComparingInt(DeadRow::sink).reversed();

    private final Store store;
    private final TenantOrdinals ordinals;
    private final DeliveryLedger ledger;
    private final DeadIndex index;

    /** Dead letters of {@code store}; the node's pages are the ledger's {@link DeliveryLedger#deadPage}. */
    DeadLetters(Store store, TenantOrdinals ordinals, DeliveryLedger ledger) {
        this.store = Objects.requireNonNull(store, "store");
        this.ordinals = Objects.requireNonNull(ordinals, "ordinals");
        this.ledger = Objects.requireNonNull(ledger, "ledger");
        this.index = new DeadIndex(store);
    }

    /** One page for {@code query}. */
    DeadLetterPage page(DeadLetterQuery query) {
        return query.tenants().isEmpty() ? allTenants(query) : someTenants(query);
    }

    private DeadLetterPage allTenants(DeadLetterQuery query) {
        // The node's dead index is ordered by (at, seq, sink) alone: the position's ordinal plays no part.
        List<DeadEntry> entries =
                ledger.deadPage(query.cursor().map(c -> new DeadRow(Ordinals.FIRST, c.at(), c.seq(), c.sink())),
                query.limit() + 1);
        List<DeadRow> rows = entries.stream().map(DeadEntry::row).toList();
        List<DeadKey.Value> values = entries.stream()
                .map(e -> new DeadKey.Value(e.row().ord(), e.sourceId(), e.hookId())).toList();
        return page(rows, values, names(rows), query.limit());
    }

    private DeadLetterPage someTenants(DeadLetterQuery query) {
        Map<Long, String> names = new LinkedHashMap<>();
        for (String tenant : query.tenants()) {
            OptionalLong ord = ordinals.ord(tenant);
            ord.ifPresent(o -> names.put(o, tenant));
        }
        List<DeadRow> rows = merged(names.keySet(), query);
        List<Optional<byte[]>> raw = store.multiGet(ColumnFamilies.INDEX,
                rows.stream().map(r -> new DeadKey(r.at(), r.seq(), r.sink()).encode()).toList());
        List<DeadRow> joined = new ArrayList<>(rows.size());
        List<DeadKey.Value> values = new ArrayList<>(rows.size());
        for (int i = 0; i < rows.size(); i++) {
            if (raw.get(i).isEmpty()) {
                // ?X and ?x are written and deleted in one batch; a lone ?X is damage, never skipped.
                throw new StoreCorruptionException("dead-by-tenant row " + rows.get(i) + " has no dead row");
            }
            joined.add(rows.get(i));
            values.add(DeadKey.decodeValue(raw.get(i).get()));
        }
        return page(joined, values, names, query.limit());
    }

    /**
     * Up to one more than the query's limit of {@code ords}' rows, newest first, after the query's
     * cursor: a k-way merge of one reverse scan per tenant.
     */
    private List<DeadRow> merged(Iterable<Long> ords, DeadLetterQuery query) {
        int count = query.limit() + 1;
        Optional<DeadKey> before = query.cursor().map(c -> new DeadKey(c.at(), c.seq(), c.sink()));
        record Head(DeadRow row, DeadRowScan scan) {
        }
        List<DeadRowScan> scans = new ArrayList<>();
        List<DeadRow> out = new ArrayList<>();
        try {
            PriorityQueue<Head> heads = new PriorityQueue<>(Comparator.comparing(Head::row, NEWEST_FIRST));
            for (long ord : ords) {
                DeadRowScan scan = before.isPresent() ? index.newestFirst(ord, before.get()) : index.newestFirst(ord);
                scans.add(scan);
                if (scan.hasNext()) {
                    heads.add(new Head(scan.next(), scan));
                }
            }
            while (out.size() < count && !heads.isEmpty()) {
                Head head = heads.poll();
                out.add(head.row());
                if (head.scan().hasNext()) {
                    heads.add(new Head(head.scan().next(), head.scan()));
                }
            }
        } finally {
            scans.forEach(DeadRowScan::close);
        }
        return out;
    }

    private Map<Long, String> names(List<DeadRow> rows) {
        List<Long> ords = List.copyOf(new LinkedHashSet<>(rows.stream().map(DeadRow::ord).toList()));
        List<Optional<byte[]>> raw = store.multiGet(ColumnFamilies.TENANTS,
                ords.stream().map(o -> new TenantByOrdKey(o).encode()).toList());
        Map<Long, String> names = new HashMap<>();
        for (int i = 0; i < ords.size(); i++) {
            long ord = ords.get(i);
            // An erased tenant keeps an empty ?t tombstone; a letter must still say whose it was.
            names.put(ord, raw.get(i).map(TenantByOrdKey::decodeValue).filter(n -> !n.isEmpty()).orElse("#" + ord));
        }
        return names;
    }

    private DeadLetterPage page(List<DeadRow> rows, List<DeadKey.Value> values, Map<Long, String> names, int limit) {
        boolean more = rows.size() > limit;
        int n = Math.min(rows.size(), limit);
        List<Optional<byte[]>> deliveryRows = store.multiGet(ColumnFamilies.DELIVERIES,
                rows.subList(0, n).stream().map(r -> new DeliveryKey(r.seq(), r.sink()).encode()).toList());
        List<DeadLetter> letters = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            DeadRow row = rows.get(i);
            DeadKey.Value value = values.get(i);
            int attempts = 0;
            String lastError = "";
            if (deliveryRows.get(i).isPresent()) {
                try {
                    DeliveryRow delivery = DeliveryRow.decode(deliveryRows.get(i).get());
                    attempts = delivery.attempts();
                    lastError = delivery.lastError();
                } catch (StoreCorruptionException e) {
                    LOG.error("store corruption: the delivery row of dead letter {} does not decode: {}", row,
                            e.getMessage());
                    lastError = "store corruption: the delivery row does not decode (" + e.getMessage() + ")";
                }
            } else {
                LOG.error("store corruption: dead letter {} has no delivery row", row);
                lastError = "store corruption: the delivery row is missing";
            }
            letters.add(new DeadLetter(names.getOrDefault(value.ord(), "#" + value.ord()), value.sourceId(),
                    value.hookId(),
                    row.seq(), row.sink(), Instant.ofEpochMilli(row.at()), attempts, lastError));
        }
        return new DeadLetterPage(letters, more);
    }
}

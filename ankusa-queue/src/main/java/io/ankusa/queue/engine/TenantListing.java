package io.ankusa.queue.engine;

import io.ankusa.api.TenantPage;
import io.ankusa.api.TenantQuery;
import io.ankusa.api.TenantSummary;
import io.ankusa.keys.ColumnFamilies;
import io.ankusa.keys.KeySpan;
import io.ankusa.keys.OrdByTenantKey;
import io.ankusa.queue.deliveries.CounterValues;
import io.ankusa.queue.deliveries.Counters;
import io.ankusa.store.Bytes;
import io.ankusa.store.KeyRange;
import io.ankusa.store.KeyValue;
import io.ankusa.store.Scan;
import io.ankusa.store.Store;
import java.util.ArrayList;
import java.util.List;

/**
 * Pages of the tenants the store holds, in tenant-id order, from the ordinal-by-tenant index
 * ({@link io.ankusa.keys.OrdByTenantKey ?n}, keyed by the id's UTF-8): one range scan of at most
 * {@code limit + 1} keys from the cursor (or the prefix's first key), and one multi-get of the page's
 * counters. Erasure deletes a tenant's {@code ?n} key in its last batch, so an erased tenant is not
 * listed; one whose erasure has begun is, until then.
 */
final class TenantListing {

    private final Store store;

    TenantListing(Store store) {
        this.store = store;
    }

    TenantPage page(TenantQuery query) {
        KeySpan span = OrdByTenantKey.startingWith(query.prefix());
        byte[] from = span.from();
        if (query.cursor().isPresent()) {
            byte[] after = new OrdByTenantKey(query.cursor().get().tenantId()).successor();
            if (Bytes.compare(after, from) > 0) {
                from = after;
            }
        }
        byte[] to = span.to();
        if (Bytes.compare(from, to) >= 0) {
            return new TenantPage(List.of(), false);
        }
        List<String> tenants = new ArrayList<>();
        List<Long> ords = new ArrayList<>();
        boolean more = false;
        try (Scan scan = store.scan(ColumnFamilies.TENANTS, KeyRange.of(from, to))) {
            while (scan.hasNext()) {
                KeyValue kv = scan.next();
                if (tenants.size() == query.limit()) {
                    more = true;
                    break;
                }
                tenants.add(OrdByTenantKey.decode(kv.key()).tenant());
                ords.add(OrdByTenantKey.decodeValue(kv.value()));
            }
        }
        List<CounterValues> counters = Counters.read(store, ords);
        List<TenantSummary> page = new ArrayList<>(tenants.size());
        for (int i = 0; i < tenants.size(); i++) {
            page.add(new TenantSummary(tenants.get(i), counters.get(i).tenantStats()));
        }
        return new TenantPage(page, more);
    }
}

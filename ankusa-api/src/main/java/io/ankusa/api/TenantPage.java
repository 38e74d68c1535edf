package io.ankusa.api;

import java.util.List;
import java.util.Optional;

/**
 * One page of the tenant listing, in tenant-id order.
 *
 * @param tenants the tenants of this page, in tenant-id order
 * @param hasMore whether tenants after the last of this page matched the query when the page was read
 */
public record TenantPage(List<TenantSummary> tenants, boolean hasMore) {

    /**
     * Copies the list.
     *
     * @param tenants the tenants of this page, in tenant-id order
     * @param hasMore whether more tenants matched the query when the page was read
     */
    public TenantPage {
        tenants = List.copyOf(tenants);
        if (hasMore && tenants.isEmpty()) {
            throw new IllegalArgumentException("an empty page cannot have more");
        }
    }

    /** {@return the cursor to read the next page with, if there is more} */
    public Optional<TenantCursor> next() {
        return hasMore ? Optional.of(tenants.get(tenants.size() - 1).cursor()) : Optional.empty();
    }
}

package io.ankusa.dispatch.report;

import java.util.List;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * A page of the tenants a pipeline's scheduler knows to have due work now (in its round-robin,
 * or waiting at a limit), in a fixed order that does not change between pages.
 *
 * @param tenants the page's tenants
 * @param next    the cursor of the next page (pass it to {@link io.ankusa.dispatch.Pipeline#dueTenants(long, int)}),
 *                empty after the last page
 */
public record DueTenants(List<TenantDispatch> tenants, OptionalLong next) {

    /**
     * Validates and copies the list.
     *
     * @param tenants the page's tenants
     * @param next the cursor of the next page (pass it to {@link io.ankusa.dispatch.Pipeline#dueTenants(long, int)}),
     *     empty after the last page
     */
    public DueTenants {
        tenants = List.copyOf(tenants);
        Objects.requireNonNull(next, "next");
    }
}

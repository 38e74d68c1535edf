package io.ankusa.cli.command;

import io.ankusa.api.TenantCursor;
import io.ankusa.api.TenantPage;
import io.ankusa.api.TenantStats;
import io.ankusa.api.TenantSummary;
import io.ankusa.cli.console.Figures;
import io.ankusa.cli.console.Json;
import io.ankusa.cli.console.Table;

/**
 * One page of the tenant listing ({@code ankusa tenants} with {@code --prefix}, {@code --after} or
 * {@code --limit}) as the table or the JSON object the command prints. Tenant ids are untrusted
 * text: the table escapes its cells, the JSON escapes its strings.
 */
final class TenantList {

    private TenantList() {
    }

    /** The page as a table of each tenant's counters, and a last line with the next page's cursor. */
    static String table(TenantPage page) {
        if (page.tenants().isEmpty()) {
            return "no tenants\n";
        }
        Table table = Table.columns("tenant", "pending", "scheduled", "inflight", "dead", "quarantined", "bytes");
        for (TenantSummary tenant : page.tenants()) {
            TenantStats stats = tenant.stats();
            table.row(tenant.tenantId(), Figures.count(stats.pending()), Figures.count(stats.scheduled()),
                    Figures.count(stats.inflight()), Figures.count(stats.dead()), Figures.count(stats.quarantined()),
                    Figures.bytes(stats.bytes()));
        }
        return table.render() + Figures.count(page.tenants().size()) + " tenants"
                + page.next().map(c -> "; next page: --after " + c.token()).orElse("; no more") + "\n";
    }

    /** The page as one JSON object: the tenants with their counters, and the next cursor (null on the last page). */
    static String json(TenantPage page) {
        Json json = new Json().beginObject().name("tenants").beginArray();
        for (TenantSummary tenant : page.tenants()) {
            TenantStats stats = tenant.stats();
            json.beginObject()
                    .member("tenant", tenant.tenantId())
                    .member("pending", stats.pending())
                    .member("scheduled", stats.scheduled())
                    .member("inflight", stats.inflight())
                    .member("dead", stats.dead())
                    .member("quarantined", stats.quarantined())
                    .member("bytes", stats.bytes())
                    .endObject();
        }
        return json.endArray().member("next", page.next().map(TenantCursor::token).orElse(null)).endObject().text();
    }
}

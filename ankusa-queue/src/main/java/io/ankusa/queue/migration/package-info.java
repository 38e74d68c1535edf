/**
 * The store format and its migrations: declared column families ({@code StoreLayout}), the guard
 * run at open ({@code FormatGuard}: sentinels, the format stamp, newer stores refused), the runner
 * ({@link io.ankusa.queue.migration.Migrations}), its registry, and the 2 → 3 migration
 * ({@code TenantKeys}). The only package allowed to use the format-2 layout
 * ({@code io.ankusa.keys.v2}; an architecture rule checks).
 */
package io.ankusa.queue.migration;

/** Tenant ordinals: allocation by the ingest writer, the writer's bounded cache, ord/name lookups. */
package io.ankusa.queue.tenants;

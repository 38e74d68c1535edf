/**
 * The HTTP edge for producers that are not on the JVM ({@code POST /v1/hooks}): the bearer token
 * and its tenant scope, a bounded read of the JSON body, the hook it describes, the queue's synced
 * receipt, and the refusals of the queue as HTTP statuses with {@code Retry-After}. Served by
 * {@link io.ankusa.admin.HookIngestServlet}; docs/ingest-edge.md is the reference.
 */
package io.ankusa.admin.ingest;

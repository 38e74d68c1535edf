/**
 * The pipeline's parts (not exported): the tick, per-tenant scan cursors, marker cleanup, sink
 * attempts with bounded concurrency, the settler and the gauge reader.
 */
package io.ankusa.dispatch.pipeline;

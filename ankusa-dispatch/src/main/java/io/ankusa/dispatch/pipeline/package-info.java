/**
 * Marker cleanup (not exported): the pipeline's delete-then-verify of active markers, the only
 * deleter of them (an architecture rule checks). Needs the ledger only; the tick, cursors,
 * attempts, settler and gauge reader that call it are package-private in {@code io.ankusa.dispatch}.
 */
package io.ankusa.dispatch.pipeline;

/**
 * The queue's public API: {@link io.ankusa.queue.Queue}, {@link io.ankusa.queue.ArchiveCompactor}
 * and {@link io.ankusa.queue.StoreUpgrade}. The package-private implementations here add the API
 * interfaces to the engine; nothing below imports this package back.
 */
package io.ankusa.queue;

/**
 * The queue's versioned binary codecs (version byte first): the hook envelope and the delivery
 * row. Garbage is refused as {@link io.ankusa.store.StoreCorruptionException}, never misread.
 */
package io.ankusa.queue.codec;

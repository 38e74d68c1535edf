/** The queue's public entry point: {@link io.ankusa.queue.Queue}. */
package io.ankusa.queue;

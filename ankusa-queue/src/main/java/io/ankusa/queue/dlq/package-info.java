/** Dead-letter pages: newest first across the node, or for some tenants through their {@code ?X} ranges. */
package io.ankusa.queue.dlq;

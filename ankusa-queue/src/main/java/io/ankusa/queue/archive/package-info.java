/** The archive compactor: obligations handed to an {@code Archiver}, then settled or dropped. */
package io.ankusa.queue.archive;

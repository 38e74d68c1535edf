/** The store format: declared column families, sentinels, the format stamp and the guard run at open. */
package io.ankusa.queue.format;

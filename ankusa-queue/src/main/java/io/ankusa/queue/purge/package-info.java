/** The public purge: a tenant's due and dead rows removed chunk by chunk, with an audit entry. */
package io.ankusa.queue.purge;

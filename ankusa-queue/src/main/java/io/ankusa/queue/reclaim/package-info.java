/** Reclaim: hooks nobody owes any more are removed, found through the {@code ?c} cleared markers. */
package io.ankusa.queue.reclaim;

/** The queue's housekeeping thread: reclaim, the dedupe sweep and audit retention, in bounded batches. */
package io.ankusa.queue.housekeeping;

/** The queue implementation: wiring and lifecycle of the queue's parts. */
package io.ankusa.queue.engine;

/** The queue's public entry points. */
package io.ankusa.queue;

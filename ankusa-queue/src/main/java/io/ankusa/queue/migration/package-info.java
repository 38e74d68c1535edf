/** Store migrations between formats: the only package allowed to use the format-2 layout. */
package io.ankusa.queue.migration;

/** Striped tenant locks for transitions that consume an existing row. */
package io.ankusa.queue.locks;

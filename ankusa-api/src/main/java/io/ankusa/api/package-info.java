/** Public value types shared by the queue, the dispatcher and their users. */
package io.ankusa.api;

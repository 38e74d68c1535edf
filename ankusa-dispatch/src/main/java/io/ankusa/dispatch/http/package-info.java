/** The built-in HTTP sink: Standard Webhooks signed POSTs over {@code java.net.http}. */
package io.ankusa.dispatch.http;

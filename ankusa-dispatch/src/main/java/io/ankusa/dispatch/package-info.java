/** The dispatcher's public entry points. */
package io.ankusa.dispatch;

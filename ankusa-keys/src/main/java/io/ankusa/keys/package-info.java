/** Store format 3 keys and values. */
package io.ankusa.keys;

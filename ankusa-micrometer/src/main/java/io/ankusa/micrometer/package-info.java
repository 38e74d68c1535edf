/** {@link io.ankusa.micrometer.AnkusaMetrics}: Ankusa's meters for a Micrometer registry. */
package io.ankusa.micrometer;

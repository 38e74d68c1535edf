/**
 * What users' tests start from. {@code io.ankusa.testkit}: the JUnit 5 extension
 * ({@link io.ankusa.testkit.AnkusaTest}, {@link io.ankusa.testkit.AnkusaExtension}) that gives a test
 * a queue on a temporary store, and {@link io.ankusa.testkit.ScriptedSink}, a sink that answers by
 * script and records attempts. {@code io.ankusa.testkit.store}: the store conformance suite a
 * storage adapter's test extends, and the in-memory backend ({@code memory}), registered as a
 * {@code StoreProvider}. {@code io.ankusa.testkit.property}: the seeded property harness the suite's
 * model-based test runs on.
 *
 * <p>Use it in test scope, with the versions from {@code ankusa-bom}. A whole user's project that
 * tests its own sink with {@code @AnkusaTest} is {@code examples/sink-test} in Ankusa's repository,
 * shown and explained in {@code docs/testing.md} ("Testing your own sink").
 */
module io.ankusa.testkit {
    requires org.assertj.core;

    requires transitive io.ankusa.api;
    requires transitive io.ankusa.dispatch;
    requires transitive io.ankusa.queue;
    requires transitive io.ankusa.store;
    requires transitive org.junit.jupiter.api;
    requires transitive org.junit.jupiter.params;

    exports io.ankusa.testkit;
    exports io.ankusa.testkit.property;
    exports io.ankusa.testkit.store;

    provides io.ankusa.store.spi.StoreProvider with io.ankusa.testkit.store.MemoryStoreProvider;
}

package io.ankusa.tests.store;

import io.ankusa.testkit.store.MemoryStoreProvider;
import io.ankusa.testkit.store.StoreConformanceSuite;

/**
 * The conformance suite on {@link MemoryStoreProvider}: the worked example of a custom adapter passing it.
 * A third-party adapter's subclass looks the same, with its own provider name.
 */
class MemoryStoreConformanceTest extends StoreConformanceSuite {

    @Override
    protected String backend() {
        return MemoryStoreProvider.NAME;
    }
}

package io.ankusa.tests.store;

/**
 * The conformance suite on the LMDB backend. No corruption injection: LMDB keeps no checksums,
 * so flipped bytes in {@code data.mdb} may read back as other data or crash the process rather
 * than raise an error — nothing a test can rely on.
 */
class LmdbConformanceTest extends StoreConformanceSuite {

    @Override
    protected String backend() {
        return "lmdb";
    }
}

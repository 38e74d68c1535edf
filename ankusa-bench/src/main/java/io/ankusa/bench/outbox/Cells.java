package io.ankusa.bench.outbox;

import java.util.Locale;

/** The names under which the outbox bench records each cell's rates. */
final class Cells {

    private Cells() {
    }

    static String ingest(String backend) {
        return "Ankusa " + backend + " synced ingest, " + PostgresOutboxBench.PRODUCERS + " producers";
    }

    static String ingestPostgres(int writers) {
        return "PostgreSQL synced ingest, " + writers + " writer connections";
    }

    static String drain(String backend, int tenants, int inFlight) {
        return String.format(Locale.ROOT, "Ankusa %s drain, %,d tenants, <= %,d in flight", backend, tenants, inFlight);
    }

    static String drainPostgres(int tenants, int inFlight) {
        return String.format(Locale.ROOT, "PostgreSQL drain, %,d tenants, <= %,d in flight (%d workers x %d)", tenants,
                inFlight, PostgresOutboxBench.WORKERS, inFlight / PostgresOutboxBench.WORKERS);
    }
}

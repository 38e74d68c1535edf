package io.ankusa.bench.outbox;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * The hooks both sides of the outbox bench ingest: {@code count} hooks of {@value #PAYLOAD} bytes,
 * one sink each, their tenants drawn from a Zipf distribution (exponent 1) over {@code tenants}
 * tenants with a fixed seed, so Ankusa and PostgreSQL see the same tenant of every hook. Hook
 * {@code i} has the id {@code "h<i>"}, which is how each side's sink tells which hook it was given.
 * Payloads are random bytes (seeded), one array per hook, so that neither RocksDB's block
 * compression nor anything in PostgreSQL gets an easy ride from repeated bytes.
 */
final class Workload {

    static final int PAYLOAD = 256;

    private final int[] tenantOf;
    private final int tenants;
    private final byte[][] payloads;

    private Workload(int[] tenantOf, int tenants, byte[][] payloads) {
        this.tenantOf = tenantOf;
        this.tenants = tenants;
        this.payloads = payloads;
    }

    /** {@code count} hooks over {@code tenants} Zipf-skewed tenants (tenant 0 the busiest). */
    static Workload zipf(int count, int tenants, long seed) {
        double[] cumulative = new double[tenants];
        double sum = 0;
        for (int k = 0; k < tenants; k++) {
            sum += 1.0 / (k + 1);
            cumulative[k] = sum;
        }
        SplittableRandom random = new SplittableRandom(seed);
        int[] tenantOf = new int[count];
        byte[][] payloads = new byte[count][];
        for (int i = 0; i < count; i++) {
            int at = Arrays.binarySearch(cumulative, random.nextDouble() * sum);
            tenantOf[i] = Math.min(tenants - 1, at >= 0 ? at : -at - 1);
            payloads[i] = new byte[PAYLOAD];
            random.nextBytes(payloads[i]);
        }
        return new Workload(tenantOf, tenants, payloads);
    }

    int count() {
        return tenantOf.length;
    }

    int tenants() {
        return tenants;
    }

    String id(int hook) {
        return "h" + hook;
    }

    /** The index of the hook whose id is {@code id}. */
    static int indexOf(String id) {
        return Integer.parseInt(id, 1, id.length(), 10);
    }

    String tenant(int hook) {
        return "tenant-" + tenantOf[hook];
    }

    byte[] payload(int hook) {
        return payloads[hook];
    }

    /** Tenants that hold at least one hook. */
    long tenantsUsed() {
        return Arrays.stream(tenantOf).distinct().count();
    }
}

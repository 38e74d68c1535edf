package io.ankusa.cli.demo;

/**
 * What a demo ingests.
 *
 * @param hooks        how many hooks (one delivery each, to sink 0)
 * @param tenants      over how many tenants; each gets at least one hook when {@code hooks >= tenants}
 * @param skew         the Zipf exponent of {@link TenantSkew} (0 = uniform)
 * @param payloadBytes the size of each hook's JSON payload (at least its fields)
 * @param seed         the seed of the tenant draw and of the simulated sink
 */
public record DemoPlan(long hooks, int tenants, double skew, int payloadBytes, long seed) {

    /** Checks the values. */
    public DemoPlan {
        if (hooks < 1) {
            throw new IllegalArgumentException("at least one hook: " + hooks);
        }
        if (tenants < 1) {
            throw new IllegalArgumentException("at least one tenant: " + tenants);
        }
        if (payloadBytes < 0) {
            throw new IllegalArgumentException("payload size must be >= 0: " + payloadBytes);
        }
    }

    /** The name of tenant {@code index}: {@code tenant-0042}, zero-padded to the widest index. */
    public String tenantName(int index) {
        int width = Integer.toString(tenants - 1).length();
        return "tenant-" + "0".repeat(Math.max(0, width - Integer.toString(index).length())) + index;
    }
}

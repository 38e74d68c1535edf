package io.ankusa.api;

import java.util.Objects;

/**
 * What {@code Queue.eraseTenant} removed. A resumed erase counts what the resuming call removed
 * (the calls cut short are not summed: a crash loses their counts).
 *
 * @param tenant     the tenant id
 * @param erased     whether the tenant existed (false: nothing was stored for it, nothing done)
 * @param pending    due rows awaiting a first attempt
 * @param scheduled  due rows awaiting a retry
 * @param inflight   rows in flight (a late settle of them is skipped)
 * @param dead       dead letters
 * @param bytes      row bytes (as the {@code bytes} counter counts them)
 * @param hooks      stored hooks
 * @param dedupeKeys idempotency keys and their expiry entries
 * @param quarantined quarantined deliveries (their bytes are in {@code bytes})
 */
public record ErasureResult(String tenant, boolean erased, long pending, long scheduled, long inflight, long dead,
        long bytes, long hooks, long dedupeKeys, long quarantined) {

    /**
     * Checks the tenant.
     *
     * @param tenant     the tenant id
     * @param erased     whether the tenant existed
     * @param pending    due rows awaiting a first attempt
     * @param scheduled  due rows awaiting a retry
     * @param inflight   rows in flight
     * @param dead       dead letters
     * @param bytes      row bytes
     * @param hooks      stored hooks
     * @param dedupeKeys idempotency keys and their expiry entries
     * @param quarantined quarantined deliveries
     */
    public ErasureResult {
        Objects.requireNonNull(tenant, "tenant");
    }

    /**
     * The result for a tenant nothing was stored for.
     *
     * @param tenant the tenant id
     * @return a result with nothing erased
     */
    public static ErasureResult none(String tenant) {
        return new ErasureResult(tenant, false, 0, 0, 0, 0, 0, 0, 0, 0);
    }
}

package io.ankusa.cli.demo;

import io.ankusa.api.Hook;
import io.ankusa.queue.Queue;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Ingests a {@link DemoPlan}'s hooks through {@link Queue#ingest}, keeping at most
 * {@value #IN_FLIGHT} unacknowledged, so the writer's group commits fill up without the ingest
 * queue ever refusing. Every hook is acknowledged (on disk) when {@link #run} returns.
 */
public final class DemoIngest {

    /** Most hooks waiting for their synced commit at a time. */
    static final int IN_FLIGHT = 8_192;

    /** The sink every demo hook fans out to. */
    public static final int SINK = 0;

    private final Queue queue;
    private final DemoPlan plan;
    private final AtomicLong acknowledged = new AtomicLong();
    private final long[] perTenant;

    /** An ingest of {@code plan} into {@code queue}. */
    public DemoIngest(Queue queue, DemoPlan plan) {
        this.queue = queue;
        this.plan = plan;
        this.perTenant = new long[plan.tenants()];
    }

    /** Hooks acknowledged so far (safe to read from any thread). */
    public long acknowledged() {
        return acknowledged.get();
    }

    /** Hooks ingested per tenant index (valid after {@link #run}). */
    public long[] perTenant() {
        return perTenant.clone();
    }

    /**
     * Ingests every hook and waits for the last acknowledgement.
     *
     * @return how long it took
     * @throws RuntimeException the first refusal, after the hooks in flight settle
     */
    public Duration run() throws InterruptedException {
        long start = System.nanoTime();
        TenantSkew skew = new TenantSkew(plan.tenants(), plan.skew());
        SplittableRandom random = new SplittableRandom(plan.seed());
        Semaphore window = new Semaphore(IN_FLIGHT);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        for (long n = 0; n < plan.hooks() && failure.get() == null; n++) {
            int tenant = n < plan.tenants() ? (int) n : skew.next(random);
            perTenant[tenant]++;
            window.acquire();
            CompletableFuture<?> receipt;
            try {
                receipt = queue.ingest(hook(n, plan.tenantName(tenant)));
            } catch (RuntimeException e) {
                window.release();
                failure.compareAndSet(null, e);
                break;
            }
            receipt.whenComplete((ok, error) -> {
                if (error != null) {
                    failure.compareAndSet(null, error);
                } else {
                    acknowledged.incrementAndGet();
                }
                window.release();
            });
        }
        window.acquire(IN_FLIGHT);
        Throwable first = failure.get();
        if (first instanceof RuntimeException e) {
            throw e;
        }
        if (first != null) {
            throw new IllegalStateException("ingest failed: " + first, first);
        }
        return Duration.ofNanos(System.nanoTime() - start);
    }

    private Hook hook(long n, String tenant) {
        String json = "{\"type\":\"demo.event\",\"n\":" + n + ",\"tenant\":\"" + tenant + "\"";
        int room = plan.payloadBytes() - json.length() - "}".length() - ",\"pad\":\"\"".length();
        String payload = room > 0 ? json + ",\"pad\":\"" + "x".repeat(room) + "\"}" : json + "}";
        return Hook.builder()
                .id("demo-" + n)
                .sourceId("ankusa-demo")
                .tenantId(tenant)
                .header("content-type", "application/json")
                .payload(payload.getBytes(StandardCharsets.UTF_8))
                .sinks(SINK)
                .build();
    }
}

package io.ankusa.queue.migration;

import io.ankusa.api.Hook;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * The contents of the format-2 fixture store ({@link io.ankusa.queue.fixtures.StoreFixtures} packs it): the
 * rows each tenant holds are tabled there. Besides what TEN-1 §7 asks of a fixture (at least three
 * tenants including {@code default}, pending, retrying, inflight and dead rows, archive obligations,
 * a tenant with only dead rows), it holds a hook that does not decode and rows of hooks that are
 * gone, which the migration files under {@code default}.
 *
 * <p>Fixture and test support, not API: this package is not exported.
 */
public final class FormatTwoFixture {

    private static final long MINUTE = 60_000;
    private static final long HOUR = 60 * MINUTE;

    private FormatTwoFixture() {
    }

    /**
     * Writes the format-2 fixture store in {@code work} and checkpoints it into {@code target}
     * (neither may exist; {@code work} is left for the caller to delete): first attempts are due
     * before {@code epoch}, retries an hour after it.
     */
    public static void write(String backend, Path work, Path target, long epoch) {
        try (FormatTwoWriter w = FormatTwoWriter.create(backend, work)) {
            long received = epoch - 2 * HOUR;
            long due = epoch - MINUTE;
            long retry = epoch + HOUR;
            long died = epoch - HOUR;

            long a1 = w.hook(hook("a1", "acme", 1, 2), received);
            long a2 = w.hook(hook("a2", "acme", 1), received);
            long a3 = w.hook(hook("a3", "acme", 1), received);
            long a4 = w.hook(hook("a4", "acme", 1), received);
            long a5 = w.hook(hook("a5", "acme", 1, 2), received);
            w.due(a1, 1, due, 0);
            w.due(a1, 2, due, 0);
            w.due(a2, 1, retry, 2);
            w.inflight(a3, 1);
            w.dead(a4, 1, died, "src", "a4");
            w.due(a5, 1, due, 0);
            w.dead(a5, 2, died, "src", "a5");
            for (long seq : new long[] {a1, a2, a3, a4, a5}) {
                w.archive(seq);
            }

            long g1 = w.hook(hook("g1", "globex", 1), received);
            long g2 = w.hook(hook("g2", "globex", 3), received);
            long g3 = w.hook(hook("g3", "globex", 1), received);
            w.due(g1, 1, due, 0);
            w.due(g2, 3, retry, 1);
            w.inflight(g3, 1);
            w.archive(g1);

            long i1 = w.hook(hook("i1", "initech", 1), received);
            long i2 = w.hook(hook("i2", "initech", 1, 2), received);
            w.dead(i1, 1, died, "src", "i1");
            w.dead(i2, 1, died + 1, "src", "i2");
            w.dead(i2, 2, died + 2, "src", "i2");
            w.archive(i1);

            long z1 = w.hook(hook("z1", "zürich", 1), received);
            w.due(z1, 1, due + 1, 0);

            long d1 = w.hook(hook("d1", null, 1), received);
            long d2 = w.hook(hook("d2", null, 1), received);
            long d3 = w.hook(hook("d3", null, 1), received);
            w.due(d1, 1, due, 0);
            w.dead(d2, 1, died, "src", "d2");
            w.inflight(d3, 1);
            w.archive(d1);

            long b1 = w.brokenHook("not an envelope".getBytes(StandardCharsets.UTF_8));
            w.due(b1, 1, due, 0);
            w.archive(b1);
            long m1 = w.missingHook(77);
            w.inflight(m1, 1);
            long m2 = w.missingHook(88);
            w.dead(m2, 2, died, "src", "m2");

            w.store().checkpoint(target);
        }
    }

    /** A small JSON hook from source {@code src} for {@code sinks}; {@code tenant} null for none. */
    public static Hook hook(String id, String tenant, int... sinks) {
        Hook.Builder b = Hook.builder().id(id).sourceId("src").header("content-type", "application/json")
                .payload("{\"id\":\"" + id + "\"}").sinks(sinks);
        if (tenant != null) {
            b.tenantId(tenant);
        }
        return b.build();
    }
}

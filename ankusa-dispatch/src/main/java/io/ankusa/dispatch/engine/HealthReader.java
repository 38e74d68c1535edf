package io.ankusa.dispatch.engine;

import io.ankusa.api.QueueStats;
import io.ankusa.api.TenantStats;
import io.ankusa.dispatch.report.DispatchHealth;
import io.ankusa.dispatch.report.HeldRows;
import io.ankusa.dispatch.report.TenantDispatch.Hold;
import io.ankusa.dispatch.report.TenantHealth;
import io.ankusa.dispatch.report.TroubledTenants;
import io.ankusa.queue.ledger.DeliveryLedger;
import io.ankusa.queue.ledger.QueueClock;
import io.ankusa.queue.ledger.TenantDirectory;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;

/**
 * Measures a pipeline's {@link DispatchHealth}, a tenant's {@link TenantHealth} and the
 * {@link TroubledTenants} from what the pipeline keeps anyway: the scheduler's marks and hold reasons
 * ({@link OldestDue}), the tick's end time, the sink's pulse and the recent failures per tenant.
 * No measurement scans a family: the node totals are one multi-get, the held rows one counter read
 * per held tenant counted ({@value HeldRows#ROWS_COUNTED} per reason at most), the troubled tenants
 * one name read per tenant reported. Any thread.
 */
final class HealthReader {

    private final DeliveryLedger ledger;
    private final TenantDirectory directory;
    private final QueueClock clock;
    private final LongSupplier nanoTime;
    private final OldestDue oldest;
    private final LongSupplier lastTickNanos;
    private final SinkPulse pulse;
    private final TenantFailures failures;
    private final BooleanSupplier ticking;

    HealthReader(DeliveryLedger ledger, TenantDirectory directory, LongSupplier nanoTime, OldestDue oldest,
            LongSupplier lastTickNanos, SinkPulse pulse, TenantFailures failures, BooleanSupplier ticking) {
        this.ledger = Objects.requireNonNull(ledger, "ledger");
        this.directory = Objects.requireNonNull(directory, "directory");
        this.clock = ledger.clock();
        this.nanoTime = Objects.requireNonNull(nanoTime, "nanoTime");
        this.oldest = Objects.requireNonNull(oldest, "oldest");
        this.lastTickNanos = Objects.requireNonNull(lastTickNanos, "lastTickNanos");
        this.pulse = Objects.requireNonNull(pulse, "pulse");
        this.failures = Objects.requireNonNull(failures, "failures");
        this.ticking = Objects.requireNonNull(ticking, "ticking");
    }

    DispatchHealth measure() {
        long now = clock.millis();
        long nowNanos = nanoTime.getAsLong();
        QueueStats totals = ledger.stats();
        boolean anyDue = totals.pending() + totals.scheduled() > 0;
        Optional<Duration> deliverable = anyDue ? age(oldest.deliverableDueAt(ledger), now) : Optional.empty();
        Optional<Duration> any = anyDue ? age(oldest.oldestDueAt(ledger), now) : Optional.empty();
        List<HeldRows> held = new ArrayList<>();
        for (Hold hold : Hold.values()) {
            if (hold == Hold.NONE) {
                continue;
            }
            OldestDue.HeldMarks marks = oldest.held(hold, HeldRows.ROWS_COUNTED);
            if (marks.tenants() == 0) {
                continue;
            }
            long rows = 0;
            for (long ord : marks.first()) {
                TenantStats stats = ledger.tenantStats(ord);
                rows += stats.pending() + stats.scheduled();
            }
            Optional<Duration> oldestAge = marks.oldest() == null ? Optional.empty()
                    : age(OptionalLong.of(marks.oldest().at()), now);
            held.add(new HeldRows(hold, marks.tenants(), rows, marks.tenants() <= marks.first().size(), oldestAge));
        }
        long last = lastTickNanos.getAsLong();
        Optional<Duration> sinceLastTick = last == Tick.NEVER ? Optional.empty()
                : Optional.of(Duration.ofNanos(Math.max(0, nowNanos - last)));
        OptionalLong silent = pulse.silentForNanos();
        return new DispatchHealth(Instant.ofEpochMilli(now), ticking.getAsBoolean(), sinceLastTick, deliverable, any,
                held, silent.isPresent() ? Optional.of(Duration.ofNanos(silent.getAsLong())) : Optional.empty());
    }

    Optional<TenantHealth> tenant(String tenant) {
        OptionalLong ord = directory.ord(tenant);
        if (ord.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(health(ord.getAsLong(), tenant, clock.millis()));
    }

    TroubledTenants troubled(int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be positive: " + limit);
        }
        long now = clock.millis();
        List<TenantHealth> byAge = new ArrayList<>(limit);
        for (OldestDue.Mark mark : oldest.earliest(limit)) {
            directory.name(mark.ord()).ifPresent(name -> byAge.add(health(mark.ord(), name, now)));
        }
        List<TenantHealth> byRate = new ArrayList<>(limit);
        for (TenantFailures.Recent recent : failures.worst(limit, TroubledTenants.MIN_ATTEMPTS)) {
            directory.name(recent.ord()).ifPresent(name -> byRate.add(health(recent.ord(), name, now)));
        }
        return new TroubledTenants(byAge, byRate);
    }

    private TenantHealth health(long ord, String name, long now) {
        TenantFailures.Recent recent = failures.of(ord);
        return new TenantHealth(name, oldest.holdOf(ord), age(oldest.markOf(ord), now), recent.attempts(),
                recent.failures());
    }

    private Optional<Duration> age(OptionalLong at, long now) {
        return at.isPresent() ? Optional.of(Duration.ofMillis(clock.waitedSince(at.getAsLong(), now)))
                : Optional.empty();
    }
}

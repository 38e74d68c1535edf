package io.ankusa.dispatch.engine;

import io.ankusa.api.events.DeadLettered;
import io.ankusa.api.events.DeliverySettled;
import io.ankusa.api.events.RetryScheduled;
import io.ankusa.dispatch.sink.OrderingPolicy;
import io.ankusa.dispatch.sink.RetryDecision;
import io.ankusa.dispatch.sink.RetryPolicy;
import io.ankusa.dispatch.sink.SinkOutcome;
import io.ankusa.queue.events.EventHub;
import io.ankusa.queue.ledger.AttemptRecord;
import io.ankusa.queue.ledger.ClaimedDelivery;
import io.ankusa.queue.ledger.DeliveryLedger;
import io.ankusa.queue.ledger.InflightRow;
import io.ankusa.queue.ledger.QueueFault;
import io.ankusa.queue.ledger.Settlement;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.random.RandomGenerator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Commits the outcomes of attempts: one thread that takes every outcome waiting and settles them
 * in one batch (group commit), written unsynced, then handed to {@link SettleSync}, which makes
 * every batch written so far durable with one fsync and only then completes them. So settling costs
 * at most one fsync per batch, not per delivery, and the next batch is written while the last one
 * is synced (were this thread to sync each batch itself, it could take no outcomes during the
 * fsync).
 *
 * <p>It also turns a sink's outcome into a settlement: delivered; dead; or, for a retry, what the
 * {@link RetryPolicy} decides — due again at {@code now + delay} (kind 1, with its marker) or dead
 * after the last attempt. Decisions are made on this one thread, so a seeded random generator
 * replays the same jitter.
 *
 * <p>A batch that fails to commit (or whose sync fails) fails the futures of its deliveries; their
 * rows stay inflight until the queue is next opened, which returns them to due (delivery is at
 * least once).
 *
 * <p>Any other {@link Throwable} (an {@code Error}) ends the thread: it records itself in the
 * queue's {@link QueueFault}, and its batch, every waiting outcome and every later one fail with
 * {@link io.ankusa.api.QueueFailedException}; {@link #close()} still returns.
 */
final class Settler implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Settler.class);

    /** Most settlements per batch. */
    static final int MAX_BATCH = 1024;

    private record Pending(Settlement settlement, Settled result, Waiting waiting, long nextAt, String reason) {

        Pending(Settlement settlement, Settled result, Waiting waiting) {
            this(settlement, result, waiting, 0, "");
        }

        CompletableFuture<Settled> done() {
            return waiting.done();
        }
    }

    /** An outcome waiting to become a settlement (decided on the settler thread), with its attempt's record. */
    private record Waiting(ClaimedDelivery delivery, SinkOutcome outcome, InflightRow orphan,
            CompletableFuture<Settled> done,
            AttemptRecord attempt) {

        Waiting(ClaimedDelivery delivery, SinkOutcome outcome, InflightRow orphan, CompletableFuture<Settled> done) {
            this(delivery, outcome, orphan, done, null);
        }
    }

    private final DeliveryLedger ledger;
    private final RetryPolicy policy;
    private final RandomGenerator random;
    private final InstantSource clock;
    private final QueueFault fault;
    private final EventHub events;
    private final EndpointTransitions endpoints;
    private final LinkedBlockingQueue<Waiting> queue = new LinkedBlockingQueue<>();
    private final SettleSync syncs;
    private final OrderingPolicy ordering;
    private final Thread thread;
    private volatile boolean closing;

    Settler(DeliveryLedger ledger, RetryPolicy policy, RandomGenerator random, InstantSource clock, QueueFault fault,
            EventHub events, EndpointTransitions endpoints) {
        this(ledger, policy, OrderingPolicy.block(), random, clock, fault, events, endpoints);
    }

    Settler(DeliveryLedger ledger, RetryPolicy policy, OrderingPolicy ordering, RandomGenerator random,
            InstantSource clock, QueueFault fault, EventHub events, EndpointTransitions endpoints) {
        this.ordering = Objects.requireNonNull(ordering, "ordering");
        this.endpoints = Objects.requireNonNull(endpoints, "endpoints");
        this.fault = Objects.requireNonNull(fault, "fault");
        this.events = Objects.requireNonNull(events, "events");
        this.ledger = Objects.requireNonNull(ledger, "ledger");
        this.policy = Objects.requireNonNull(policy, "policy");
        this.random = Objects.requireNonNull(random, "random");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.syncs = new SettleSync(ledger, fault);
        this.thread = new Thread(this::run, "ankusa-dispatch-settler");
        thread.setDaemon(true);
        thread.start();
    }

    /** Settles {@code delivery} as {@code outcome} says; completes once committed. */
    CompletableFuture<Settled> settle(ClaimedDelivery delivery, SinkOutcome outcome) {
        return enqueue(new Waiting(delivery, outcome, null, new CompletableFuture<>()));
    }

    /**
     * Settles {@code delivery} as {@code outcome} says and records {@code attempt} in the history, in the same batch.
     */
    CompletableFuture<Settled> settle(ClaimedDelivery delivery, SinkOutcome outcome, AttemptRecord attempt) {
        return enqueue(new Waiting(delivery, outcome, null, new CompletableFuture<>(), attempt));
    }

    /** Drops an orphan row (its hook is gone); completes once committed. */
    CompletableFuture<Settled> drop(InflightRow orphan) {
        return enqueue(new Waiting(null, null, orphan, new CompletableFuture<>()));
    }

    private CompletableFuture<Settled> enqueue(Waiting waiting) {
        RuntimeException failed = fault.failure();
        if (failed != null) {
            waiting.done().completeExceptionally(failed);
        } else if (closing) {
            waiting.done().completeExceptionally(new IllegalStateException("the pipeline is closed"));
        } else {
            queue.add(waiting);
            if (!thread.isAlive() && fault.failure() != null) {
                // The settler died after the check above: do not leave this outcome waiting.
                drain(fault.failure());
            }
        }
        return waiting.done();
    }

    private void run() {
        List<Waiting> batch = new ArrayList<>();
        try {
            loop(batch);
        } catch (Throwable e) {
            RuntimeException failed = fault.fail("settler", e);
            batch.forEach(w -> w.done().completeExceptionally(failed));
            drain(failed);
        }
    }

    private void drain(RuntimeException why) {
        Waiting w;
        while ((w = queue.poll()) != null) {
            w.done().completeExceptionally(why);
        }
    }

    private void loop(List<Waiting> batch) {
        while (true) {
            try {
                Waiting first = queue.poll(100, TimeUnit.MILLISECONDS);
                if (first == null) {
                    if (closing && queue.isEmpty()) {
                        return;
                    }
                    continue;
                }
                batch.clear();
                batch.add(first);
                queue.drainTo(batch, MAX_BATCH - 1);
                commit(batch);
            } catch (InterruptedException e) {
                if (closing && queue.isEmpty()) {
                    return;
                }
            }
        }
    }

    private void commit(List<Waiting> batch) {
        List<Pending> pending = new ArrayList<>(batch.size());
        List<EndpointTransitions.Change> changes;
        boolean[] unsynced = new boolean[1];
        try {
            for (Waiting w : batch) {
                pending.add(decide(w));
            }
            List<Settlement> settlements = pending.stream().map(Pending::settlement).toList();
            List<AttemptRecord> attempts = batch.stream().map(Waiting::attempt).filter(Objects::nonNull).toList();
            changes = endpoints.settle(batch.stream().filter(w -> w.delivery() != null)
                    .map(w -> new EndpointTransitions.Outcome(w.delivery(), w.outcome())).toList(),
                    clock.millis(), rows -> {
                        DeliveryLedger.SettleWrite write = ledger.settleWritten(settlements, attempts, rows);
                        unsynced[0] = write.unsynced();
                        return write.endpoints();
                    });
        } catch (RuntimeException e) {
            LOG.error("settling {} deliveries failed; their rows stay inflight until the queue is reopened",
                    batch.size(), e);
            batch.forEach(w -> w.done().completeExceptionally(e));
            return;
        }
        List<Waiting> written = List.copyOf(batch);
        syncs.written(new SettleSync.Written(unsynced[0], () -> complete(pending, changes),
                e -> written.forEach(w -> w.done().completeExceptionally(e))));
    }

    /** Reports a durable batch settled (settle-sync thread). */
    private void complete(List<Pending> pending, List<EndpointTransitions.Change> changes) {
        // Events first: a settle's future (and so a tick's report) completes only once its events
        // are handed off, so what a caller reads after a tick includes them.
        pending.forEach(this::report);
        endpoints.report(changes, events);
        pending.forEach(p -> p.done().complete(p.result()));
    }

    /** Logs a committed settlement at DEBUG with its tenant, hook and sink, and publishes its events. */
    private void report(Pending p) {
        Waiting w = p.waiting();
        if (w.orphan() != null) {
            InflightRow o = w.orphan();
            LOG.atDebug().addKeyValue("seq", o.seq()).addKeyValue("sink", o.sink()).addKeyValue("outcome", p.result())
                    .log("delivery dropped: its hook is gone");
            if (events.active()) {
                DeliverySettled settled =
                        new DeliverySettled("", "", o.seq(), o.sink(), DeliverySettled.Result.DROPPED);
                events.publish(l -> l.onSettled(settled));
            }
            return;
        }
        ClaimedDelivery d = w.delivery();
        LOG.atDebug().addKeyValue("tenant", d.tenantId()).addKeyValue("hook", d.hookId()).addKeyValue("sink", d.sink())
                .addKeyValue("attempt", d.attempt()).addKeyValue("outcome", p.result()).log("delivery settled");
        if (!events.active()) {
            return;
        }
        if (p.result() == Settled.RETRIED) {
            RetryScheduled retry = new RetryScheduled(d.tenantId(), d.hookId(), d.sink(), d.attempt(),
                    Instant.ofEpochMilli(p.nextAt()), p.reason());
            events.publish(l -> l.onRetryScheduled(retry));
        } else if (p.result() == Settled.DEAD) {
            DeadLettered dead = new DeadLettered(d.tenantId(), d.hookId(), d.sink(), d.attempt(), p.reason());
            events.publish(l -> l.onDeadLettered(dead));
        }
        DeliverySettled settled = new DeliverySettled(d.tenantId(), d.hookId(), d.row().seq(), d.sink(),
                DeliverySettled.Result.valueOf(p.result().name()));
        events.publish(l -> l.onSettled(settled));
    }

    private Pending decide(Waiting w) {
        if (w.orphan() != null) {
            return new Pending(new Settlement.Orphan(w.orphan()), Settled.DROPPED, w);
        }
        ClaimedDelivery d = w.delivery();
        SinkOutcome outcome = w.outcome();
        if (outcome instanceof SinkOutcome.Delivered) {
            return new Pending(new Settlement.Delivered(d.row()), Settled.DELIVERED, w);
        }
        if (outcome instanceof SinkOutcome.EndpointGone && endpoints.waits()) {
            // The endpoint is disabled by this outcome (EndpointTransitions): the delivery waits
            // with the endpoint's others, due now and held by the admission step, not dead.
            long nextAt = clock.millis();
            return new Pending(new Settlement.Retry(d, nextAt, outcome.reason()), Settled.RETRIED, w, nextAt,
                    outcome.reason());
        }
        if (outcome instanceof SinkOutcome.Dead || outcome instanceof SinkOutcome.EndpointGone
                || outcome instanceof SinkOutcome.EndpointDisabled) {
            return new Pending(new Settlement.Dead(d, outcome.reason()), Settled.DEAD, w, 0, outcome.reason());
        }
        SinkOutcome.Retry retry = (SinkOutcome.Retry) outcome;
        if (d.row().ordered() && ordering.skips(d.sink(), d.attempt(), clock.millis() - d.receivedAt())) {
            // A head that holds up its key past the ordering policy: dead-lettered, and the key goes on.
            String reason = OrderingPolicy.SKIPPED + ": head of its ordering key skipped after attempt " + d.attempt()
                    + "; " + retry.reason();
            return new Pending(new Settlement.Dead(d, reason), Settled.DEAD, w, 0, reason);
        }
        RetryDecision decision = policy.decide(d.attempt(), retry, random);
        if (decision instanceof RetryDecision.RetryAfter after) {
            long nextAt = clock.millis() + after.delay().toMillis();
            return new Pending(new Settlement.Retry(d, nextAt, retry.reason()), Settled.RETRIED, w, nextAt,
                    retry.reason());
        }
        String reason = ((RetryDecision.GiveUp) decision).reason();
        return new Pending(new Settlement.Dead(d, reason), Settled.DEAD, w, 0, reason);
    }

    /** Settles what is waiting (written and synced), then stops the threads; later outcomes are refused. */
    @Override
    public void close() {
        closing = true;
        try {
            thread.join(TimeUnit.SECONDS.toMillis(60));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        syncs.close();
        RuntimeException failed = fault.failure();
        drain(failed != null ? failed : new IllegalStateException("the pipeline is closed"));
    }
}

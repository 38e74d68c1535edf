package io.ankusa.queue.intake;

import io.ankusa.api.ClockBeforeEpochException;
import io.ankusa.api.Hook;
import io.ankusa.api.IngestOverloadedException;
import io.ankusa.api.IntakePosition;
import io.ankusa.api.QueueClosedException;
import io.ankusa.api.QueueFailedException;
import io.ankusa.api.Receipt;
import io.ankusa.api.TraceContext;
import io.ankusa.api.TenantErasingException;
import io.ankusa.api.TenantLimitException;
import io.ankusa.api.TenantOverloadedException;
import io.ankusa.api.events.IngestCommitted;
import io.ankusa.keys.ColumnFamilies;
import io.ankusa.keys.DedupeKey;
import io.ankusa.keys.HookKey;
import io.ankusa.keys.MetaKeys;
import io.ankusa.keys.OrderKey;
import io.ankusa.queue.admission.PolicyCache;
import io.ankusa.queue.deliveries.Counters;
import io.ankusa.queue.deliveries.HookEnvelope;
import io.ankusa.queue.deliveries.Deliveries;
import io.ankusa.queue.deliveries.DeliveryBatch;
import io.ankusa.queue.deliveries.RegistryBook;
import io.ankusa.queue.events.EventHub;
import io.ankusa.queue.ledger.DueRow;
import io.ankusa.queue.ledger.DueStamps;
import io.ankusa.queue.ledger.QueueFault;
import io.ankusa.store.Durability;
import io.ankusa.store.Store;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The ingest writer: one thread per queue that turns submitted hooks into synced group commits.
 *
 * <p>What it guarantees, and why:
 * <ul>
 * <li><b>A receipt means durable.</b> A caller's future completes only after a synced commit
 *     that covers its hook returned. A crash before that loses the batch whole (the store's batch
 *     is atomic), and no caller was told otherwise.</li>
 * <li><b>Group commit, overlapped with the write and the fsync.</b> The thread takes the first
 *     waiting hook, then drains more while the batch stays within {@code batchMaxHooks} and
 *     {@code batchMaxBytes} (a single larger hook commits alone), assembles the batch and hands it
 *     to {@link IngestCommitter}, whose thread writes it unsynced (together with every batch
 *     waiting behind it, in one commit) and hands its receipts to {@link DurableReceipts}, whose
 *     thread syncs every batch written so far with one fsync and then completes their receipts.
 *     Meanwhile this thread assembles the next batch: assembly overlaps the store's write (on LMDB
 *     a data-page {@code fdatasync}) and the sync. Under load commits grow by themselves, idle
 *     latency is one commit and one sync.</li>
 * <li><b>The next batch is assembled on the batches in flight.</b> Up to
 *     {@value IngestCommitter#MAX_AHEAD} assembled batches wait for the committer; the next one
 *     sees their new tenants' ordinals ({@link TenantOrdinals#handedOff}) and their dedupe keys
 *     (a repeat of a hook in flight is a repeat). When a commit fails, every batch assembled after
 *     it fails too, unwritten (their futures fail; nothing of theirs is acknowledged), and the
 *     writer forgets what they carried before it assembles the next one. Chores and the stop wait
 *     until no batch is in flight.</li>
 * <li><b>seq is commit order, never reused.</b> Only this thread assigns seq, in batch order; the
 *     highest is written as {@code m:last_seq} in every batch and recovered at open. After a
 *     failed commit the seqs it used are skipped, not reused, because the failure may have
 *     happened after the batch landed.</li>
 * <li><b>Tenant ordinals ride in the batch.</b> The batch's distinct tenants are resolved by
 *     {@link TenantOrdinals#resolve}; new ordinals' rows are put in the same synced batch as the
 *     first rows that use them. A hook whose new tenant would pass {@code tenants.max} fails its
 *     own future with {@link TenantLimitException} and writes nothing; the rest of the batch
 *     commits.</li>
 * <li><b>The request path takes no lock</b> and makes no call into this thread beyond a
 *     non-blocking offer to a bounded queue; a full queue refuses with
 *     {@link IngestOverloadedException}, or, for a waiting ingest, holds the producer until
 *     there is room or its wait is over.</li>
 * <li><b>Dedupe comes first.</b> Before tenants are resolved, {@link IdempotencyKeys#screen}
 *     settles repeats of a stored hook (they complete with its receipt and write nothing) and
 *     chains in-batch repeats to their leader; the keys of accepted hooks ride in the batch.
 *     Work that must not race the writer (the dedupe sweep) runs on this thread between batches
 *     ({@link #submitChore}).</li>
 * <li><b>A clock before the epoch writes nothing.</b> Stored times are unsigned; a clock that
 *     reads a negative time fails the hooks that needed it with {@link ClockBeforeEpochException}
 *     (at submit, or the whole batch before any seq is taken), and the writer carries on.</li>
 * <li><b>A dead writer hangs nobody.</b> A {@code RuntimeException} fails its batch and the writer
 *     carries on; any other {@link Throwable} (an {@code Error}) ends the thread: it records itself
 *     in the queue's {@link QueueFault}, fails its batch, every queued hook and chore, and every
 *     later submit with {@link io.ankusa.api.QueueFailedException}, and {@link #close()} still
 *     returns.</li>
 * <li><b>An intake position lands with its hook.</b> A hook submitted with an
 *     {@link IntakePosition} (read from an external log, such as a Kafka partition) has the
 *     position written as {@code m:intake:<source>} in the batch that holds the hook, only when the
 *     hook is accepted: a refused hook or a failed commit leaves the last position as it was, so
 *     a reader resuming from it reads the refused record again.</li>
 * <li><b>Admission before ordinals are written.</b> After dedupe the batch's tenants are
 *     resolved to ordinals (nothing is written until the commit), then a hook of a tenant being
 *     erased fails with {@link TenantErasingException}, and {@link IngestAdmission} (whose state
 *     is kept per ordinal) refuses hooks over their tenant's limits with
 *     {@link TenantOverloadedException}; a refused hook writes nothing, not even a new tenant's
 *     ordinal: when every hook of a new tenant was refused, the batch is resolved again without it.</li>
 * <li><b>Fan-out rides in the batch.</b> A hook with an event type (and, so, no sinks) is given
 *     its sinks after dedupe and before admission: those of its tenant's registered endpoints
 *     subscribed to the type, read from the {@link RegistryBook}'s snapshot at assembly. Its
 *     stored envelope carries them, and its delivery rows are written in the same batch as the
 *     hook, so fan-out is as durable and atomic as a hook with sinks; admission counts its rows.
 *     A registry change is committed and in the snapshot before its call returns, so a hook
 *     submitted after that sees it; rows already written never move. A hook no endpoint
 *     subscribes to takes a seq (and its idempotency key and intake position are written) but
 *     writes no hook or delivery row; its receipt names no sink. A hook without an event type
 *     costs one field read more.</li>
 * </ul>
 */
public final class IngestWriter implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(IngestWriter.class);

    private static final Pending STOP = new Pending(null, null, null, null, null);
    /** Wakes an idle writer to run its chores. */
    private static final Pending WAKE = new Pending(null, null, null, null, null);

    private final Store store;
    private final TenantOrdinals ordinals;
    private final InstantSource clock;
    private final DueStamps stamps;
    private final Limits limits;
    private final IdempotencyKeys idempotencyKeys;
    private final QueueFault fault;
    private final IngestAdmission admission;
    private final EventHub events;
    private final RegistryBook registry;
    /** Tenants being erased: written only by chores (between batches), read by the writer. */
    private final Set<String> erasing = ConcurrentHashMap.newKeySet();
    private final Queue<Chore<?>> chores = new ConcurrentLinkedQueue<>();
    private final BlockingQueue<Pending> queue;
    private final DurableReceipts receipts;
    private final IngestCommitter committer;
    private final Thread thread;
    private volatile boolean closing;
    private volatile long lastSeq;
    /** The queue time last written to {@code m:clock}; only the writer thread touches it. */
    private long persistedClock;
    /** Bumped when a batch in flight fails: the batches assembled on it fail too; writer thread only. */
    private long generation;
    /** The dedupe entries of the batches in flight (handed to the committer, not yet written); writer thread only. */
    private final Map<DedupeKey, DedupeKey.Value> unwrittenKeys = new HashMap<>();
    /** Batches handed to the committer, and outcomes taken back; writer thread only. */
    private long handedOff;
    private long settled;

    /**
     * Writer limits.
     *
     * @param batchMaxHooks most hooks per commit
     * @param batchMaxBytes most envelope bytes per commit
     * @param capacity      most hooks waiting
     * @param archive       whether ingest writes archive obligations
     */
    public record Limits(int batchMaxHooks, long batchMaxBytes, int capacity, boolean archive) {
    }

    /**
     * What ingest admission decides from.
     *
     * @param policies        the tenants' cached policies
     * @param nanos           a monotonic nanosecond clock for the ingest-rate buckets
     * @param nodeMaxRowBytes the node-wide limit on row bytes (aggregate {@code bytes} counter);
     *                        {@link Long#MAX_VALUE} for none
     */
    public record Admission(PolicyCache policies, LongSupplier nanos, long nodeMaxRowBytes) {
    }

    /**
     * A hook waiting for the writer; {@code position} is null for a hook not read from an intake
     * log; {@code sinks} are the hook's own, or for a hook with an event type those of its fan-out
     * once the writer resolved it (with the envelope that stores them).
     */
    private record Pending(Hook hook, byte[] envelope, IntakePosition position, CompletableFuture<Receipt> future,
            List<Integer> sinks) {
    }

    private record Chore<T>(Supplier<T> work, CompletableFuture<T> done) {
        void run() {
            try {
                done.complete(work.get());
            } catch (RuntimeException e) {
                done.completeExceptionally(e);
            } catch (Throwable e) {
                done.completeExceptionally(e);
                throw e;
            }
        }
    }

    private IngestWriter(Store store, TenantOrdinals ordinals, DueStamps stamps, Limits limits,
            IdempotencyKeys idempotencyKeys, QueueFault fault, long lastSeq, Admission admission, EventHub events,
            RegistryBook registry) {
        this.store = store;
        this.events = events;
        this.registry = registry;
        this.fault = fault;
        this.ordinals = ordinals;
        this.stamps = stamps;
        this.clock = stamps.clock();
        this.limits = limits;
        this.idempotencyKeys = idempotencyKeys;
        this.lastSeq = lastSeq;
        this.persistedClock = Math.max(0, clock.millis());
        this.admission = new IngestAdmission(admission.policies(),
                ord -> Counters.read(store, ord),
                () -> Counters.read(store, io.ankusa.keys.Ordinals.AGGREGATE).bytes(), admission.nanos(),
                admission.nodeMaxRowBytes());
        // Exactly the hooks allowed to wait: a full queue refuses (or holds a waiting producer);
        // WAKE is dropped when full (the writer runs chores after every take), STOP waits for room.
        this.queue = new ArrayBlockingQueue<>(limits.capacity());
        this.receipts = new DurableReceipts(store, events, fault);
        this.committer = new IngestCommitter(store, ordinals, receipts, events, fault);
        this.thread = new Thread(this::run, "ankusa-ingest-writer");
        this.thread.setDaemon(true);
    }

    /**
     * Starts a writer whose first seq will be {@code lastSeq + 1}; its death is recorded in
     * {@code fault}; each batch is published to {@code events} just before its futures are completed.
     * Its hooks' due rows are stamped through {@code stamps} (whose clock is the writer's), each
     * batch's stamp held until the batch is written or failed. A hook with an event type fans out
     * to the endpoints of {@code registry} subscribed to it.
     */
    public static IngestWriter start(Store store, TenantOrdinals ordinals, DueStamps stamps, Limits limits,
            IdempotencyKeys idempotencyKeys, QueueFault fault, long lastSeq, Admission admission, EventHub events,
            RegistryBook registry) {
        IngestWriter writer = new IngestWriter(Objects.requireNonNull(store, "store"), Objects.requireNonNull(ordinals,
                "ordinals"), Objects.requireNonNull(stamps, "stamps"), limits,
                Objects.requireNonNull(idempotencyKeys, "idempotencyKeys"), Objects.requireNonNull(fault, "fault"),
                lastSeq, Objects.requireNonNull(admission, "admission"), Objects.requireNonNull(events, "events"),
                Objects.requireNonNull(registry, "registry"));
        writer.thread.start();
        return writer;
    }

    /** Queues {@code hook}; the future completes once its batch is durable, or fails with the refusal. */
    public CompletableFuture<Receipt> submit(Hook hook) {
        return submit(hook, Duration.ZERO);
    }

    /**
     * Queues {@code hook}, waiting up to {@code wait} for room when {@code capacity} hooks are
     * already waiting (back-pressure on the calling thread); fails with
     * {@link IngestOverloadedException} when there is still no room then, or when the calling
     * thread is interrupted while it waits (its interrupt status is kept).
     */
    public CompletableFuture<Receipt> submit(Hook hook, Duration wait) {
        return submit(hook, null, wait);
    }

    /**
     * Queues {@code hook} like {@link #submit(Hook, Duration)}, read from {@code position} of an
     * intake log (or null): when the hook is accepted, the position is written in the same batch
     * ({@link IntakePositions}).
     */
    public CompletableFuture<Receipt> submit(Hook hook, IntakePosition position, Duration wait) {
        return submit(hook, hook.traceContext().orElse(null), position, wait);
    }

    /**
     * Queues {@code hook} like {@link #submit(Hook, IntakePosition, Duration)}, storing
     * {@code trace} (or none, for null) as its trace context.
     */
    public CompletableFuture<Receipt> submit(Hook hook, TraceContext trace, IntakePosition position, Duration wait) {
        QueueFailedException failed = fault.failure();
        if (failed != null) {
            return CompletableFuture.failedFuture(failed);
        }
        if (closing) {
            return CompletableFuture.failedFuture(new QueueClosedException("queue is closed"));
        }
        long receivedAt = clock.millis();
        if (receivedAt < 0) {
            return CompletableFuture.failedFuture(new ClockBeforeEpochException(receivedAt));
        }
        byte[] envelope = new HookEnvelope(hook, receivedAt).encode(trace);
        Pending pending = new Pending(hook, envelope, position, new CompletableFuture<>(), hook.sinks());
        if (!offer(pending, wait)) {
            return CompletableFuture.failedFuture(new IngestOverloadedException(limits.capacity()));
        }
        if (closing || fault.failure() != null) {
            // close() or a dying writer may already have drained; make sure this future does not hang.
            failLeftovers();
        }
        return pending.future();
    }

    private boolean offer(Pending pending, Duration wait) {
        if (wait.isZero() || wait.isNegative()) {
            return queue.offer(pending);
        }
        try {
            return queue.offer(pending, wait.toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /**
     * Runs {@code chore} on the writer thread between two batches, so it cannot race the writer
     * (the dedupe sweep). The future fails with {@link QueueClosedException} if the writer stops
     * first.
     */
    public <T> CompletableFuture<T> submitChore(Supplier<T> chore) {
        CompletableFuture<T> done = new CompletableFuture<>();
        if (closing) {
            done.completeExceptionally(new QueueClosedException("queue is closed"));
            return done;
        }
        chores.add(new Chore<>(Objects.requireNonNull(chore, "chore"), done));
        // A full queue means the writer is busy: it runs the chores after its current batch (loop
        // runs them after every take and every batch), so the chore waits without a WAKE. A writer
        // that stopped meanwhile fails it just below.
        if (!queue.offer(WAKE)) {
            LOG.debug("ingest queue full: the chore runs after the writer's current batch");
        }
        if (closing || fault.failure() != null) {
            failLeftovers();
        }
        return done;
    }

    /**
     * Writes the queue clock's "now" to {@code m:clock} on the writer thread (its single writer)
     * when it has moved at least {@code minAdvanceMillis} past the value last written, so that a
     * restart after a backward clock step starts from it (housekeeping calls this on an idle
     * queue; every ingest batch writes it anyway). Completes when written, or at once when there
     * was nothing to write.
     *
     * @param minAdvanceMillis how far the clock must have moved for a write
     * @return completes after the write
     */
    public CompletableFuture<Void> persistClockAfter(long minAdvanceMillis) {
        return submitChore(() -> {
            persistClock(minAdvanceMillis);
            return null;
        });
    }

    private void persistClock(long minAdvanceMillis) {
        long now = clock.millis();
        if (now < 0 || now - persistedClock < minAdvanceMillis || (minAdvanceMillis == 0 && now == persistedClock)) {
            return;
        }
        try {
            DeliveryBatch ops = new DeliveryBatch();
            ops.put(ColumnFamilies.DEFAULT, MetaKeys.CLOCK, MetaKeys.u64Value(now));
            ops.commit(store, Durability.ASYNC);
            persistedClock = now;
        } catch (RuntimeException e) {
            // Nothing acknowledged depends on it: the next open starts from the older value or the wall.
            LOG.warn("could not persist the queue clock ({} ms)", now, e);
        }
    }

    /** Runs the waiting chores once no batch is in flight: a chore never races a batch being written. */
    private void runChores() {
        if (chores.isEmpty()) {
            return;
        }
        awaitCommitter();
        Chore<?> chore;
        while ((chore = chores.poll()) != null) {
            chore.run();
        }
    }

    private void run() {
        List<Pending> batch = new ArrayList<>();
        try {
            loop(batch);
        } catch (Throwable e) {
            // Anything but a RuntimeException ends the writer: record it, then fail whatever waits.
            QueueFailedException failed = fault.fail("ingest writer", e);
            batch.forEach(p -> p.future().completeExceptionally(failed));
            drain(failed);
        } finally {
            // What was handed over before the writer stopped is written, synced and acknowledged.
            committer.close();
            receipts.close();
        }
    }

    /** Takes back the outcomes of the batches the committer has finished, without waiting. */
    private void takeOutcomes() {
        IngestCommitter.Outcome outcome;
        while ((outcome = committer.outcomes().poll()) != null) {
            settle(outcome);
        }
    }

    /** Waits until every batch handed to the committer has its outcome (before a chore or a stop). */
    private void awaitCommitter() {
        try {
            while (settled < handedOff) {
                settle(committer.outcomes().take());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the ingest committer", e);
        }
    }

    /**
     * One batch in flight was written or failed. Written: its new ordinals are cached now (by the
     * committer), its dedupe entries readable from the store. Failed: every batch assembled after
     * it fails too (same generation), so forget what they carried — new ordinals (never handed
     * out again), dedupe entries, admission's estimates — and start the next generation.
     */
    private void settle(IngestCommitter.Outcome outcome) {
        settled++;
        IngestCommitter.Assembled batch = outcome.batch();
        // Only this batch's own entries: a batch of a newer generation may hold the same key.
        batch.keys().forEach((key, value) -> unwrittenKeys.remove(key, value));
        if (outcome.written()) {
            if (batch.resolution() != null) {
                ordinals.landed(batch.resolution());
            }
            persistedClock = Math.max(persistedClock, batch.clock());
            return;
        }
        if (batch.resolution() != null) {
            ordinals.abandoned(batch.resolution());
        }
        if (batch.generation() == generation) {
            generation++;
            ordinals.abandonInFlight();
            unwrittenKeys.clear();
            admission.forget();
        }
    }

    private void handOff(IngestCommitter.Assembled batch) {
        handedOff++;
        committer.handOff(batch);
    }

    /** Ends the writer (through {@link #run}'s handler) when the committer died; fails {@code taken} first. */
    private void requireCommitter(Pending taken) {
        Throwable died = committer.death();
        if (died == null) {
            return;
        }
        if (taken != STOP && taken != WAKE) {
            QueueFailedException failed = fault.failure();
            taken.future()
                    .completeExceptionally(failed != null ? failed : new QueueFailedException("ingest writer", died));
        }
        throw new IllegalStateException("the ingest committer died", died);
    }

    private void loop(List<Pending> batch) {
        while (true) {
            Pending first;
            takeOutcomes();
            try {
                first = queue.take();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            requireCommitter(first);
            takeOutcomes();
            runChores();
            if (first == STOP) {
                awaitCommitter();
                persistClock(0);
                return;
            }
            if (first == WAKE) {
                continue;
            }
            batch.clear();
            batch.add(first);
            long bytes = first.envelope().length;
            while (batch.size() < limits.batchMaxHooks()) {
                Pending next = queue.peek();
                if (next == null || next == STOP || next == WAKE
                        || bytes + next.envelope().length > limits.batchMaxBytes()) {
                    break;
                }
                queue.poll();
                batch.add(next);
                bytes += next.envelope().length;
            }
            BatchTally tally = new BatchTally(batch.size(), System.nanoTime());
            boolean handed = false;
            try {
                handed = assemble(batch, tally);
            } catch (RuntimeException e) {
                LOG.error("ingest batch of {} hooks failed", batch.size(), e);
                batch.forEach(p -> p.future().completeExceptionally(e));
            }
            batch.clear();
            if (!handed && events.active()) {
                IngestCommitted committed = tally.finish(System.nanoTime());
                events.publish(listener -> listener.onIngestCommitted(committed));
            }
            // A chore submitted while the queue was full had its WAKE dropped: run it now, in case
            // this batch drained the queue and the next take would wait.
            runChores();
        }
    }

    /**
     * Screens, admits and assembles one batch and hands it to the committer, which writes it
     * (unsynced) and hands the receipts that may complete once it is synced — its accepted hooks'
     * and its repeats' (which may name a batch not yet synced) — to {@link DurableReceipts}.
     * Returns whether it handed anything over (else the batch's event is the caller's).
     */
    private boolean assemble(List<Pending> all, BatchTally tally) {
        // The batch's due rows are stamped with this, held until the committer wrote or failed
        // the batch (DueStamps: the marker cleanup keeps the markers of its second meanwhile).
        DueStamps.Held held = stamps.hold();
        IngestCommitter.Assembled batch = null;
        try {
            batch = assembled(all, tally, held);
        } finally {
            if (batch == null || batch.stamp() == null) {
                held.close();
            }
        }
        if (batch == null) {
            return false;
        }
        handOff(batch);
        return true;
    }

    /**
     * {@link #assemble}'s batch under the stamp {@code held}: the batch to hand over (holding the
     * stamp when it writes anything), or null when there is nothing to hand over.
     */
    private IngestCommitter.Assembled assembled(List<Pending> all, BatchTally tally, DueStamps.Held held) {
        long now = held.millis();
        if (now < 0) {
            // Every stored time is unsigned: refuse the batch before a seq or an ordinal is taken.
            ClockBeforeEpochException refusal = new ClockBeforeEpochException(now);
            all.forEach(p -> p.future().completeExceptionally(refusal));
            tally.refusedAll(refusal.error(), all.size());
            return null;
        }
        List<DurableReceipts.Due> due = new ArrayList<>();
        List<Pending> batch = new ArrayList<>(all.size());
        List<IdempotencyKeys.Verdict> kept = new ArrayList<>(all.size());
        screen(all, now, tally, due, batch, kept);
        fanOut(batch);
        Resolution resolution = resolveAdmitted(batch, kept, tally);
        if (batch.isEmpty()) {
            return repeatsOnly(due, tally);
        }
        DeliveryBatch ops = new DeliveryBatch();
        resolution.writeTo(ops);
        List<Pending> accepted = new ArrayList<>(batch.size());
        IntakePositions positions = new IntakePositions();
        List<Receipt> issued = new ArrayList<>(batch.size());
        Map<DedupeKey, DedupeKey.Value> keys = new HashMap<>();
        for (int i = 0; i < batch.size(); i++) {
            Pending p = batch.get(i);
            OptionalLong ord = resolution.ord(p.hook().tenant());
            if (ord.isEmpty()) {
                TenantLimitException refusal = new TenantLimitException(p.hook().tenant(), ordinals.tenantsMax());
                p.future().completeExceptionally(refusal);
                tally.refused(refusal.error());
                continue;
            }
            long seq = ++lastSeq;
            if (!p.sinks().isEmpty()) {
                // A hook no endpoint subscribes to has nothing to deliver: no hook row, no delivery rows.
                ops.put(ColumnFamilies.HOOKS, new HookKey(seq).encode(), p.envelope());
                Deliveries.ingestOps(ops, ord.getAsLong(), seq, p.sinks(), p.envelope().length, now,
                        limits.archive(), p.hook().orderingKey().map(OrderKey::group).orElse(DueRow.UNORDERED));
            }
            if (kept.get(i) instanceof IdempotencyKeys.Fresh fresh) {
                keys.put(fresh.key(), idempotencyKeys.writeTo(ops, fresh, seq, p.hook().id(), now));
            }
            if (p.position() != null) {
                positions.accepted(p.position());
            }
            accepted.add(p);
            issued.add(new Receipt(p.hook().id(), p.hook().tenant(), seq, Optional.of(p.sinks())));
        }
        if (accepted.isEmpty()) {
            return repeatsOnly(due, tally);
        }
        long clockWritten = Math.max(now, persistedClock);
        ops.put(ColumnFamilies.DEFAULT, MetaKeys.LAST_SEQ, MetaKeys.u64Value(lastSeq));
        positions.writeTo(ops);
        ops.put(ColumnFamilies.DEFAULT, MetaKeys.CLOCK, MetaKeys.u64Value(clockWritten));
        List<DurableReceipts.Due> receiptsOfAccepted = new ArrayList<>(accepted.size());
        for (int i = 0; i < accepted.size(); i++) {
            receiptsOfAccepted.add(new DurableReceipts.Due(accepted.get(i).future(), issued.get(i)));
        }
        // The next batch is assembled on what this one leaves: its new ordinals, its dedupe keys.
        ordinals.handedOff(resolution);
        unwrittenKeys.putAll(keys);
        return new IngestCommitter.Assembled(generation, ops.toWriteBatch(), receiptsOfAccepted, due, tally,
                resolution, keys, clockWritten, held);
    }

    /**
     * Sorts {@code all} by its idempotency verdicts, in order: a repeat of a stored hook gets that
     * hook's receipt (added to {@code due}), a repeat of a hook earlier in the batch completes with
     * that hook, and every other hook goes to {@code batch}, its verdict to {@code kept}.
     */
    private void screen(List<Pending> all, long now, BatchTally tally, List<DurableReceipts.Due> due,
            List<Pending> batch, List<IdempotencyKeys.Verdict> kept) {
        List<IdempotencyKeys.Verdict> verdicts = idempotencyKeys.screen(all.stream().map(Pending::hook).toList(), now,
                unwrittenKeys);
        for (int i = 0; i < all.size(); i++) {
            Pending p = all.get(i);
            IdempotencyKeys.Verdict verdict = verdicts.get(i);
            if (verdict instanceof IdempotencyKeys.Repeat repeat) {
                due.add(new DurableReceipts.Due(p.future(), repeat.receipt()));
                tally.duplicate();
            } else if (verdict instanceof IdempotencyKeys.Follows follows) {
                tally.duplicate();
                all.get(follows.leader()).future().whenComplete((receipt, failure) -> {
                    if (failure != null) {
                        p.future().completeExceptionally(failure);
                    } else {
                        p.future().complete(receipt);
                    }
                });
            } else {
                batch.add(p);
                kept.add(verdict);
            }
        }
    }

    /**
     * Gives each hook of {@code batch} with an event type the sinks of its tenant's endpoints
     * subscribed to it, and an envelope that stores them (a hook of a tenant being erased is
     * left as it is: admission refuses it).
     */
    private void fanOut(List<Pending> batch) {
        for (int i = 0; i < batch.size(); i++) {
            Pending p = batch.get(i);
            Optional<String> type = p.hook().eventType();
            if (type.isEmpty() || erasing.contains(p.hook().tenant())) {
                continue;
            }
            List<Integer> sinks = registry.tenant(p.hook().tenant()).subscribers(type.get());
            byte[] envelope = sinks.isEmpty() ? p.envelope() : HookEnvelope.withSinks(p.envelope(), sinks);
            batch.set(i, new Pending(p.hook(), envelope, p.position(), p.future(), List.copyOf(sinks)));
        }
    }

    /**
     * Resolves the ordinals of {@code batch}'s tenants and drops the hooks admission refuses
     * ({@link #admit}); returns the ordinals of the tenants left. While any hook is left, no
     * ordinal is allocated for a new tenant whose every hook was refused.
     */
    private Resolution resolveAdmitted(List<Pending> batch, List<IdempotencyKeys.Verdict> kept, BatchTally tally) {
        Set<String> tenants = new LinkedHashSet<>();
        batch.forEach(p -> tenants.add(p.hook().tenant()));
        Resolution resolution = ordinals.resolve(tenants);
        admit(batch, kept, tally, resolution);
        Set<String> admitted = new LinkedHashSet<>();
        batch.forEach(p -> admitted.add(p.hook().tenant()));
        if (!admitted.containsAll(resolution.allocated().keySet())) {
            // A new tenant's every hook was refused: its ordinal must not be written. Forget what
            // admission holds under the ordinals handed out (the next batch hands them out again,
            // maybe to other tenants) and resolve again without it (nothing was committed, so the
            // same ordinals are handed out from the same next one).
            resolution.allocated().values().forEach(admission::forget);
            if (!batch.isEmpty()) {
                resolution = ordinals.resolve(admitted);
            }
        }
        return resolution;
    }

    /** A batch that writes nothing: its repeats complete after the batches before it are synced (null: none). */
    private IngestCommitter.Assembled repeatsOnly(List<DurableReceipts.Due> repeats, BatchTally tally) {
        if (repeats.isEmpty()) {
            return null;
        }
        return new IngestCommitter.Assembled(generation, null, List.of(), repeats, tally, null, Map.of(), 0, null);
    }

    /**
     * Drops from {@code batch} (and its verdicts {@code kept}) the hooks of tenants being erased
     * and the hooks admission refuses, failing their futures; the rest stay in order.
     */
    private void admit(List<Pending> batch, List<IdempotencyKeys.Verdict> kept, BatchTally tally,
            Resolution resolution) {
        admission.beginBatch();
        int to = 0;
        for (int i = 0; i < batch.size(); i++) {
            Pending p = batch.get(i);
            Hook hook = p.hook();
            if (erasing.contains(hook.tenant())) {
                TenantErasingException refusal = new TenantErasingException(hook.tenant());
                p.future().completeExceptionally(refusal);
                tally.refused(refusal.error());
                continue;
            }
            int rows = p.sinks().size();
            Optional<TenantOverloadedException> refusal = admission.admit(hook.tenant(),
                    resolution.ord(hook.tenant()).orElse(IngestAdmission.NO_ORDINAL), rows,
                    (long) rows * p.envelope().length);
            if (refusal.isPresent()) {
                p.future().completeExceptionally(refusal.get());
                tally.refused(refusal.get().error() + "." + refusal.get().reason().code());
                continue;
            }
            batch.set(to, p);
            kept.set(to, kept.get(i));
            to++;
        }
        batch.subList(to, batch.size()).clear();
        kept.subList(to, kept.size()).clear();
    }

    /**
     * Starts refusing {@code tenant}'s hooks with {@link TenantErasingException}. The future
     * completes on the writer thread between two batches: after it, no batch holding a hook of the
     * tenant can commit.
     */
    public CompletableFuture<Void> fenceErasing(String tenant) {
        return submitChore(() -> {
            erasing.add(tenant);
            return null;
        });
    }

    /**
     * The erase of {@code tenant} finished: its cached ordinal and admission state are forgotten
     * and its hooks are accepted again (as a new tenant). Runs between two batches.
     */
    public CompletableFuture<Void> erased(String tenant) {
        return submitChore(() -> {
            ordinals.forget(tenant);
            admission.erased();
            erasing.remove(tenant);
            return null;
        });
    }

    /** Whether {@code tenant}'s hooks are being refused because it is being erased. */
    public boolean erasing(String tenant) {
        return erasing.contains(tenant);
    }

    /** Hooks refused by admission so far for {@code reason} (any thread). */
    public long refusals(TenantOverloadedException.Reason reason) {
        return admission.refusals(reason);
    }

    /** The highest seq assigned so far (writer's view). */
    public long lastSeq() {
        return lastSeq;
    }

    /** Stops taking hooks, commits those already queued, and stops the thread. */
    @Override
    public void close() {
        if (closing) {
            return;
        }
        closing = true;
        try {
            // A dead writer takes nothing: do not wait for room in its queue.
            while (thread.isAlive() && !queue.offer(STOP, 100, TimeUnit.MILLISECONDS)) {
                // the writer is draining a full queue; try again
            }
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        failLeftovers();
    }

    private void failLeftovers() {
        if (thread.isAlive()) {
            return;
        }
        QueueFailedException failed = fault.failure();
        drain(failed != null ? failed : new QueueClosedException("queue closed before the hook was written"));
    }

    private void drain(RuntimeException why) {
        Pending p;
        while ((p = queue.poll()) != null) {
            if (p != STOP && p != WAKE) {
                p.future().completeExceptionally(why);
            }
        }
        Chore<?> chore;
        while ((chore = chores.poll()) != null) {
            chore.done().completeExceptionally(why);
        }
    }
}

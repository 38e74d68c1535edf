package io.ankusa.queue;

import io.ankusa.api.AttemptPage;
import io.ankusa.api.AttemptQuery;
import io.ankusa.api.AuditEntry;
import io.ankusa.api.DeadLetterPage;
import io.ankusa.api.DeadLetterQuery;
import io.ankusa.api.DeadStats;
import io.ankusa.api.DiskUsage;
import io.ankusa.api.EndpointRegistry;
import io.ankusa.api.EndpointStatus;
import io.ankusa.api.ErasureResult;
import io.ankusa.api.Hook;
import io.ankusa.api.IntakePosition;
import io.ankusa.api.PurgeKind;
import io.ankusa.api.PurgeResult;
import io.ankusa.api.QuarantineResult;
import io.ankusa.api.QuarantinedDelivery;
import io.ankusa.api.QueueConfig;
import io.ankusa.api.QueueHealth;
import io.ankusa.api.QueueStats;
import io.ankusa.api.Receipt;
import io.ankusa.api.StoredHook;
import io.ankusa.api.TenantPage;
import io.ankusa.api.TenantQuery;
import io.ankusa.api.TenantStats;
import io.ankusa.api.events.QueueListener;
import io.ankusa.queue.engine.QueueEngine;
import io.opentelemetry.api.OpenTelemetry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * A durable multi-tenant webhook queue over one store (format 3).
 *
 * <p>{@link #ingest} hands a hook to the queue's single writer thread, which group-commits with
 * fsync and then completes the future: a {@link Receipt} means the hook and one due delivery per
 * sink are on disk. The future completes on {@link QueueConfig#completionExecutor()} (by default
 * the queue's own pool), never on the writer thread, so a callback that blocks stalls no other
 * producer. Reads are point reads of per-tenant counters (O(1), no scan). Delivery itself
 * (claiming due rows, settling them) is the dispatcher's, through the queue's delivery ledger.
 *
 * <p>Thread-safe. Close it to stop the writer (hooks already accepted are committed first) and
 * release the store.
 */
public interface Queue extends AutoCloseable {

    /**
     * Opens (or creates) the store in {@code config.directory()}, refuses a store of a newer format
     * ({@link io.ankusa.api.StoreFormatNewerException}), migrates an older one, moves inflight
     * rows left by a crash back to due, and starts the writer.
     *
     * @param config where the store lives, its backend and the queue's limits
     * @return the running queue; close it to commit what the writer holds and release the store
     */
    static Queue open(QueueConfig config) {
        return EngineQueue.open(config, OpenTelemetry.noop());
    }

    /**
     * Opens the queue like {@link #open(QueueConfig)}, tracing with {@code openTelemetry}: each
     * {@code ingest} is an {@code ankusa.ingest} span, and the trace context stored with each hook
     * (the hook's own or the caller's current one) makes the pipeline's delivery attempts part of
     * the producer's trace (docs/operations.md, Traces). {@link OpenTelemetry#noop()} costs
     * nothing and is what {@link #open(QueueConfig)} uses.
     *
     * @param config        where the store lives, its backend and the queue's limits
     * @param openTelemetry the tracer provider and propagators to trace with
     * @return the running queue; close it to commit what the writer holds and release the store
     */
    static Queue open(QueueConfig config, OpenTelemetry openTelemetry) {
        return EngineQueue.open(config, openTelemetry);
    }

    /**
     * Queues {@code hook}. The future completes with a receipt after the synced commit that holds
     * the hook, or fails with {@link io.ankusa.api.InvalidHookException} (payload over the
     * configured limit; the other input rules are enforced when the {@link Hook} is built),
     * {@link io.ankusa.api.TenantLimitException} (a new tenant past {@code tenants.max}),
     * {@link io.ankusa.api.QueueFailedException} (the writer died: see {@link #health()}),
     * {@link io.ankusa.api.IngestOverloadedException}, {@link io.ankusa.api.QueueClosedException}
     * or a {@link io.ankusa.store.StoreException}. A refused hook writes nothing and affects no
     * other hook.
     *
     * @param hook the hook to queue
     * @return a future of the receipt (the hook's id and seq), completed once the hook is durable
     */
    CompletableFuture<Receipt> ingest(Hook hook);

    /**
     * Queues {@code hook} like {@link #ingest(Hook)}, with back-pressure: when
     * {@code ingestQueueCapacity} hooks are already waiting for the writer, the calling thread
     * waits up to {@code timeout} for room instead of being refused at once. Only when there is
     * still no room then (or the thread is interrupted while it waits; its interrupt status is
     * kept) does the future fail with {@link io.ankusa.api.IngestOverloadedException}. Every other
     * refusal is the same as {@link #ingest(Hook)}'s. A zero or negative timeout does not wait.
     *
     * @param hook    the hook to queue
     * @param timeout how long the calling thread may wait for room in the writer's queue
     * @return a future of the receipt, completed once the hook is durable
     */
    CompletableFuture<Receipt> ingest(Hook hook, Duration timeout);

    /**
     * Queues {@code hook}, read from {@code position} of an external, ordered intake log (a Kafka
     * topic partition, for example), like {@link #ingest(Hook, Duration)}: when the hook is
     * accepted, its position is written as the source's last position in the same synced batch
     * as the hook, so that {@link #intakePosition(String)} never names a hook that is not in the
     * store, nor misses one that is. A refused hook (every refusal of {@link #ingest(Hook)}) or a
     * failed commit writes neither. A hook that repeats a stored hook's idempotency key writes
     * nothing, its position included; a later accepted hook moves the position past it. Submit a
     * source's hooks from one thread in log order: the queue keeps the batch's last position per
     * source.
     *
     * @param hook     the hook to queue
     * @param position the log and offset it was read from
     * @param timeout  how long the calling thread may wait for room in the writer's queue
     * @return a future of the receipt, completed once the hook and its position are durable
     */
    CompletableFuture<Receipt> ingest(Hook hook, IntakePosition position, Duration timeout);

    /**
     * The offset of the last hook accepted from {@code source} by
     * {@link #ingest(Hook, IntakePosition, Duration)}, as written with it (one point read).
     *
     * @param source the intake log's name, as in {@link IntakePosition#source()}
     * @return the last accepted offset, or empty when no hook was accepted from the source
     * @throws IllegalArgumentException when {@code source} is not a valid source name
     */
    OptionalLong intakePosition(String source);

    /**
     * Whether the queue serves calls: {@link QueueHealth.State#RUNNING}, {@link QueueHealth.State#FAILED}
     * (a long-lived thread — the ingest writer, a pipeline's settler, housekeeping — died of a
     * {@link Throwable}; {@code ingest} and {@code purgeTenant} then fail with
     * {@link io.ankusa.api.QueueFailedException} naming it, reads still answer from the store, and
     * {@link #close()} completes; reopen the queue) or {@link QueueHealth.State#CLOSED}. A cheap
     * read for health checks.
     *
     * @return the queue's state and, when failed, which thread died of what
     */
    QueueHealth health();

    /**
     * Events dropped so far because a listener registered on {@link QueueConfig.Builder#listener}
     * did not keep up (its bounded hand-off was full); 0 without listeners.
     *
     * @return the count since the queue was opened
     */
    long eventsDropped();

    /**
     * Adds a listener to a queue that is open already (those of {@link QueueConfig.Builder#listener}
     * are there from the start): it hears the events published from now on, on a thread of its own
     * with the same bounded hand-off. For a binder that attaches itself to a running node in one
     * call.
     *
     * @param listener the listener; it is never removed before the queue closes
     * @throws io.ankusa.api.QueueClosedException when the queue is closed
     */
    void addListener(QueueListener listener);

    /**
     * A tenant's backlog and dead count from its counters; zeros for an unknown tenant (no scan).
     *
     * @param tenant the tenant's id
     * @return its pending, scheduled, inflight and dead rows and its row bytes, as counted
     */
    TenantStats pendingForTenant(String tenant);

    /**
     * A tenant's dead letters from its counter; zero for an unknown tenant.
     *
     * @param tenant the tenant's id
     * @return how many of its deliveries are dead letters
     */
    DeadStats deadForTenant(String tenant);

    /**
     * The node aggregate: seven counters in one multi-get.
     *
     * @return the node-wide counts of pending, scheduled, inflight and dead rows, quarantined rows, row bytes and
     *     archive obligations
     */
    QueueStats stats();

    /**
     * What the store takes on disk and the attempt history's share of it
     * (docs/operations.md, "Disk").
     *
     * <p>Cost: one counter read for the history's bytes (the node's {@code history_bytes} counter,
     * kept in the batches that write and prune the history), and the backend's size: on RocksDB two
     * property reads, on LMDB one environment read; no family is scanned, no file system call is made
     * (an adapter without its own measure walks the store's directory instead, O(files)). Cheap
     * enough for every metrics scrape and health check.
     *
     * @return the store's size, the history's bytes and the history's bound ({@code attempts.max-bytes})
     */
    DiskUsage diskUsage();

    /**
     * How many tenants were ever seen (ordinals allocated), one point read.
     *
     * @return the number of tenant ordinals allocated so far, erased tenants included
     */
    long tenantCount();

    /**
     * A page of the tenants the queue holds, in tenant-id order (the unsigned order of the ids'
     * UTF-8 bytes, which is code point order), each with its counters as {@link #pendingForTenant}
     * gives them: every tenant, or those whose id starts with {@link TenantQuery#prefix() a prefix},
     * from the start or after a cursor. An erased tenant is not listed (its erasure removes it from
     * the tenant index in its last batch; until then it is).
     *
     * <p>Cost: one range scan of the tenant index (ids in key order) reading at most
     * {@code limit + 1} keys from the cursor, and one multi-get of the page's counters (eight per
     * tenant). No other family is read; the cost is the page, not the number of tenants.
     *
     * @param query which tenants, how many, and from where to continue
     * @return the page, with the position to ask for the next one
     */
    TenantPage tenants(TenantQuery query);

    /**
     * The stored hook {@code seq} of {@code tenant} (the seq its {@link Receipt}, its dead letters,
     * attempts and quarantined deliveries carry), with where each of its deliveries stands: due, in
     * flight, dead, quarantined or finished.
     *
     * <p>Cost: the tenant's ordinal (cached, or one point read), one point read of the hook, one range
     * scan of its own delivery rows (at most one per sink) and one multi-get of three index keys per
     * row left. No scan of a tenant's backlog: a due delivery's due time is therefore not read.
     *
     * <p>The store keeps no index by hook id: a hook id is unique per source only and chosen by the
     * caller, so the seq is the key. {@link #attempts(AttemptQuery)} by hook id and
     * {@link #deadLetters(DeadLetterQuery)} give the seqs of a hook id's deliveries.
     *
     * <p>Empty for an unknown tenant, a seq the tenant holds no hook of (another tenant's hook
     * included), and a hook whose every delivery ended and which has been deleted: the settle that
     * delivers a hook's last delivery deletes it, or reclaim does soon after; its attempt history
     * remains ({@link AttemptQuery#hook}). A hook whose stored bytes do not decode has no
     * {@link StoredHook#hook()}; it is returned only when one of its deliveries is in flight, dead or
     * quarantined under the tenant (else nothing shows whose it is).
     *
     * @param tenant the tenant's id
     * @param seq    the hook's seq
     * @return the hook and its deliveries' states, or empty
     */
    Optional<StoredHook> hook(String tenant, long seq);

    /**
     * How long the oldest due row has been due (zero if it is not yet due), from the active index.
     *
     * @return the age of the oldest due row, or empty when nothing is due
     */
    Optional<Duration> oldestDueAge();

    /**
     * Says that {@code tenant}'s {@link io.ankusa.api.TenantPolicy} changed: the queue forgets its
     * cached copy, and the scheduler and ingest admission read the application's
     * {@link io.ankusa.api.TenantPolicies} again for it.
     *
     * @param tenant the tenant whose policy changed
     */
    void tenantPolicyChanged(String tenant);

    /** Says that any tenant's policy may have changed: every cached policy is forgotten. */
    void tenantPoliciesChanged();

    /**
     * Writes a consistent copy of the store into {@code target} (which must not exist) while the
     * queue keeps running: a backup that opens as a store. Take one before upgrading to a release
     * with a newer store format; it is the only way back (docs/deployment.md).
     *
     * @param target the directory to write the copy into; it must not exist yet
     */
    void checkpoint(Path target);

    // --- operators ---

    /**
     * A page of dead letters, newest first: the whole node's (one reverse scan of the dead
     * family), or those of {@link DeadLetterQuery#tenants() some tenants} (one reverse scan of
     * each tenant's own dead range, merged). Never reads a hook; the cost is the page, not the DLQ.
     *
     * @param query which tenants' dead letters, how many, and from where to continue
     * @return the page, with the position to ask for the next one
     */
    DeadLetterPage deadLetters(DeadLetterQuery query);

    /**
     * Removes {@code tenant}'s due deliveries ({@link PurgeKind#PENDING}), dead letters
     * ({@link PurgeKind#DEAD}) or both, in synced chunks of 500 with their counters, and records
     * an audit entry. Inflight deliveries are never touched. An unknown tenant is an empty result
     * (nothing is scanned). Idempotent: a purge cut short is finished by calling it again.
     *
     * @throws IllegalArgumentException when {@code kinds} is empty
     * @param tenant the tenant whose rows to remove
     * @param kinds  which rows: due deliveries, dead letters or both; not empty
     * @return how many rows, bytes and hooks were removed
     */
    PurgeResult purgeTenant(String tenant, Set<PurgeKind> kinds);

    /**
     * Up to {@code limit} (1..10 000) quarantined deliveries of the node, by tenant ordinal, then
     * hook seq: deliveries whose stored hook or delivery row does not decode (corruption). The
     * claim moved them aside instead of sending or dropping them; they are kept, counted in
     * {@link QueueStats#quarantined()}, and block nothing. One scan of the quarantine; no hook read.
     *
     * @param limit the most deliveries to list, 1..10 000
     * @return the quarantined deliveries, oldest tenant ordinal and hook first
     */
    List<QuarantinedDelivery> quarantine(int limit);

    /**
     * Up to {@code limit} (1..10 000) of {@code tenant}'s quarantined deliveries; empty for an unknown tenant.
     *
     * @param tenant the tenant's id
     * @param limit the most deliveries to list, 1..10 000
     * @return the tenant's quarantined deliveries, by hook seq
     */
    List<QuarantinedDelivery> quarantine(String tenant, int limit);

    /**
     * Moves every quarantined delivery of {@code tenant} back to due now as a first attempt (after
     * the operator restored the hooks, for example from a backup), in synced chunks of 500 with
     * their counters, and records an audit entry ({@code quarantine-release}). A hook that still
     * does not decode is quarantined again by the next claim. Idempotent.
     *
     * @param tenant the tenant whose quarantined deliveries to release
     * @return how many deliveries were released, and their bytes
     */
    QuarantineResult releaseQuarantine(String tenant);

    /**
     * Deletes every quarantined delivery of {@code tenant} (its delivery rows; reclaim then removes
     * a hook nothing else holds), in synced chunks of 500 with their counters, and records an audit
     * entry ({@code quarantine-purge}). The only way a quarantined delivery is ever deleted.
     *
     * @param tenant the tenant whose quarantined deliveries to delete
     * @return how many deliveries were deleted, and their bytes
     */
    QuarantineResult purgeQuarantine(String tenant);

    /**
     * A page of the attempt history, newest first: a tenant's attempts (every hook and sink) or one
     * hook's (every sink), each one range scan. Each settled attempt is recorded in the batch that
     * settled it, with its start time, HTTP status, latency, error class and reason; at most
     * {@code attempts.per-delivery} per delivery and for {@code attempts.retention} (docs/delivery.md,
     * "Attempt history"). An unknown tenant has an empty page.
     *
     * @param query whose attempts, how many, and from where to continue
     * @return the page, with the position to ask for the next one
     */
    AttemptPage attempts(AttemptQuery query);

    /**
     * Up to {@code limit} (1..10 000) endpoints of the node with a stored state — disabled, or
     * active and failing — by tenant ordinal, then sink (from memory: the state is read from the
     * store once per open). An endpoint not listed is active and not failing.
     *
     * @param limit most endpoints to return
     * @return the endpoints
     * @throws IllegalArgumentException when {@code limit} is out of range
     */
    List<EndpointStatus> endpoints(int limit);

    /**
     * Up to {@code limit} (1..10 000) of {@code tenant}'s endpoints with a stored state, by sink;
     * empty for an unknown tenant.
     *
     * @param tenant the tenant
     * @param limit  most endpoints to return
     * @return the endpoints
     * @throws IllegalArgumentException when {@code limit} is out of range
     */
    List<EndpointStatus> endpoints(String tenant, int limit);

    /**
     * Enables endpoint {@code (tenant, sink)} (synced, audited as {@code endpoint-enable} when it was
     * disabled) and clears its failure history: a running pipeline sends its waiting deliveries on
     * its next tick. Enabling an active endpoint changes nothing.
     *
     * @param tenant the tenant
     * @param sink   the sink number, 0..65 535
     * @return its state now (active)
     * @throws IllegalArgumentException when {@code sink} is out of range
     */
    EndpointStatus enableEndpoint(String tenant, int sink);

    /**
     * Disables endpoint {@code (tenant, sink)} by an operator's decision (synced, audited as
     * {@code endpoint-disable}); its deliveries wait, or are dead-lettered, as
     * {@code endpoint.disabled-policy} says. One already disabled keeps its reason.
     *
     * @param tenant the tenant
     * @param sink   the sink number, 0..65 535
     * @return its state now (disabled)
     * @throws IllegalArgumentException for an unknown tenant or a sink out of range
     */
    EndpointStatus disableEndpoint(String tenant, int sink);

    /**
     * Each tenant's registered endpoints, kept in this queue's store: their URLs, event-type
     * filters, limits, headers, metadata and signing secrets, with timed rotation
     * (docs/delivery.md, "Endpoints and event types"). This registry checks URLs but not their
     * addresses; the dispatcher's {@code RegistryResolver.registry()} adds its SSRF guard's check.
     * {@link #eraseTenant} removes a tenant's endpoints.
     *
     * @return the registry
     */
    EndpointRegistry endpointRegistry();

    /**
     * Erases {@code tenant}: its hooks, delivery rows, due, inflight and dead index rows, active
     * markers, archive obligations, idempotency keys, registered endpoints (an unknown tenant's
     * too), counters (taken off the aggregate) and its ordinal row, in synced chunks, and records
     * an audit entry with the counts. The ordinal is
     * never reused: its {@code ?t} row stays as an empty tombstone, and a later hook of the same
     * id becomes a new tenant with a new ordinal. While the erase runs, the tenant's hooks fail
     * with {@link io.ankusa.api.TenantErasingException}. Inflight rows are dropped: a delivery
     * under way may still reach its sink, and its settle is skipped. Resumable: an erase cut short
     * (an exception, a crash) keeps the tenant fenced, and calling this again finishes it. An
     * unknown tenant is {@link ErasureResult#none}. One erase runs at a time.
     *
     * @param tenant the tenant to erase
     * @return what was erased, by kind, or {@link ErasureResult#none} for an unknown tenant
     */
    ErasureResult eraseTenant(String tenant);

    /**
     * This queue's audited changes made on behalf of {@code actor}: the same calls as the queue's
     * own, whose audit entries name the actor ({@link AuditEntry#actor()}); the queue's own calls
     * record none. Explicit per call site and safe to share between threads (no state but the
     * actor): the admin API passes the request's principal, the CLI {@code cli:<os user>}.
     *
     * @param actor the principal making the changes, as {@link AuditEntry#requireActor} accepts it
     * @return the changes, audited with {@code actor}
     * @throws IllegalArgumentException when {@code actor} cannot name a principal
     */
    default OperatorActions actingAs(String actor) {
        return new EngineOperations(QueueEngine.of(this), actor);
    }

    /**
     * Up to {@code limit} (1..10 000) audit entries, newest first.
     *
     * @param limit how many entries at most, 1..10 000
     * @return the entries, newest first
     */
    List<AuditEntry> auditTrail(int limit);

    /**
     * Up to {@code limit} audit entries recorded before entry {@code beforeSeq}, newest first (to page back).
     *
     * @param beforeSeq the seq of the entry to page back from (the oldest one seen so far)
     * @param limit     how many entries at most, 1..10 000
     * @return the entries, newest first
     */
    List<AuditEntry> auditTrail(long beforeSeq, int limit);

    /** Commits what the writer holds, stops it and closes the store. Idempotent. */
    @Override
    void close();
}

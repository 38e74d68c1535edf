package io.ankusa.dispatch;

import io.ankusa.api.AuditAction;
import io.ankusa.api.AuditEntry;
import io.ankusa.api.DeadLetter;
import io.ankusa.api.DeadLetterCursor;
import io.ankusa.api.DeadLetterQuery;
import io.ankusa.api.DeliveryState;
import io.ankusa.api.StoredDelivery;
import io.ankusa.queue.Queue;
import io.ankusa.queue.ledger.AuditRecorder;
import io.ankusa.queue.ledger.DeadEntry;
import io.ankusa.queue.ledger.DeadRow;
import io.ankusa.queue.ledger.DeliveryLedger;
import io.ankusa.queue.ledger.LedgerSource;
import io.ankusa.queue.ledger.TenantDirectory;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Consumer;

/**
 * Replays dead letters: each revived row becomes due now as a first attempt (kind 0, attempts
 * reset), with its counters (dead −1, pending +1) and its active marker in the same batch, under
 * its tenant's stripe; a started {@link Pipeline} then delivers it like a new hook. A row purged or
 * revived by someone else meanwhile is skipped, never counted twice.
 *
 * <p>Replays by tenant and by hook id touch only rows dead-lettered before the replay started, so
 * a replayed row that fails for good again during the replay is not replayed a second time.
 *
 * <p>Nothing is skipped silently. A replay by tenant or hook id leaves the letters dead-lettered
 * after it began (by the queue clock, which never goes backwards, so a backward wall-clock step
 * cannot make old letters look newer), and any replay skips letters someone else revived or purged
 * first; each is counted in its result ({@link ReplayResult}, {@link ReplayPage#skipped()}) and in
 * its audit entry.
 *
 * <p>Every call that revives or skips rows records it in the queue's audit trail
 * ({@link AuditAction#REPLAY}, counts {@code revived}, and {@code skipped_newer} and
 * {@code skipped_gone} when not 0): one entry per tenant whose rows it revived or skipped, after
 * the revival commits, so a page spanning three tenants records three. A call that finds nothing
 * records nothing. A call cut short by an exception still records what it had done, with
 * {@code interrupted = 1}. The entries of a replayer {@link #actingAs acting as} a principal name
 * it ({@link AuditEntry#actor()}); those of {@link #of} name none. Thread-safe.
 */
public final class Replayer {

    /** Dead rows read and revived per batch. */
    static final int CHUNK = 500;

    private final Queue queue;
    private final DeliveryLedger ledger;
    private final Optional<String> actor;

    private Replayer(Queue queue, Optional<String> actor) {
        this.queue = queue;
        this.ledger = LedgerSource.of(queue).deliveryLedger();
        this.actor = actor;
    }

    /**
     * The replayer of {@code queue}.
     *
     * @param queue the open queue whose dead letters to revive
     * @return a replayer over that queue
     */
    public static Replayer of(Queue queue) {
        return new Replayer(Objects.requireNonNull(queue, "queue"), Optional.empty());
    }

    /**
     * A replayer of the same queue whose audit entries, its jobs' included, name {@code actor}.
     *
     * @param actor the principal replaying, as {@link AuditEntry#requireActor} accepts it
     * @return a replayer recording {@code actor}
     * @throws IllegalArgumentException when {@code actor} cannot name a principal
     */
    public Replayer actingAs(String actor) {
        return new Replayer(queue, Optional.of(AuditEntry.requireActor(actor)));
    }

    /**
     * Revives every dead row of {@code tenant} dead-lettered before now (the queue clock, which
     * never goes backwards), oldest first, in batches of 500: one range of the tenant's dead index
     * per batch. Returns how many it revived and how many it skipped, by reason, or
     * {@link ReplayResult.Match#UNKNOWN_TENANT} for a tenant the queue does not know (no scan).
     * Audited as one entry for {@code tenant} when it revived or skipped any.
     *
     * @param tenant the tenant whose dead letters to revive
     * @return how many dead rows became due again, and how many were skipped and why
     */
    public ReplayResult replayTenant(String tenant) {
        OptionalLong ord = LedgerSource.of(queue).tenantDirectory().ord(Objects.requireNonNull(tenant, "tenant"));
        if (ord.isEmpty()) {
            return ReplayResult.UNKNOWN_TENANT;
        }
        long startedAt = ledger.clock().millis();
        return audited(tenant, tally -> {
            while (true) {
                List<DeadRow> rows = ledger.deadRows(ord.getAsLong(), CHUNK);
                List<DeadRow> before = rows.stream().filter(r -> r.at() <= startedAt).toList();
                if (!before.isEmpty()) {
                    tally.revived(before.size(), ledger.revive(ord.getAsLong(), before));
                }
                if (before.size() < rows.size()) {
                    tally.newer(countNewer(ord.getAsLong(), startedAt));
                    return;
                }
                if (rows.size() < CHUNK) {
                    return;
                }
            }
        });
    }

    /**
     * Revives {@code tenant}'s dead rows of the hook {@code hookId} (every sink; every hook of that
     * id, should two sources have used it), dead-lettered before now. Reads the tenant's dead index
     * with the ids its dead-letter values carry, no hook: O(the tenant's dead letters). Returns how
     * many it revived and skipped, by reason; {@link ReplayResult.Match#UNKNOWN_TENANT} for a
     * tenant the queue does not know, {@link ReplayResult.Match#NO_DEAD_LETTER} when the tenant has no
     * dead letter of that hook id. Audited as one entry
     * for {@code tenant} when it revived or skipped any.
     *
     * @param tenant the tenant the hook belongs to
     * @param hookId the hook's id
     * @return how many dead rows became due again, and how many were skipped and why
     */
    public ReplayResult replayHook(String tenant, String hookId) {
        Objects.requireNonNull(hookId, "hookId");
        OptionalLong ord = LedgerSource.of(queue).tenantDirectory().ord(Objects.requireNonNull(tenant, "tenant"));
        if (ord.isEmpty()) {
            return ReplayResult.UNKNOWN_TENANT;
        }
        long startedAt = ledger.clock().millis();
        List<DeadRow> matches = new ArrayList<>();
        long newer = 0;
        Optional<DeadRow> after = Optional.empty();
        while (true) {
            List<DeadEntry> page = ledger.deadEntries(ord.getAsLong(), after, CHUNK);
            for (DeadEntry entry : page) {
                if (entry.hookId().equals(hookId)) {
                    if (entry.row().at() <= startedAt) {
                        matches.add(entry.row());
                    } else {
                        newer++;
                    }
                }
            }
            if (page.size() < CHUNK) {
                break;
            }
            after = Optional.of(page.get(page.size() - 1).row());
        }
        long skippedNewer = newer;
        return audited(tenant, tally -> {
            tally.newer(skippedNewer);
            for (int from = 0; from < matches.size(); from += CHUNK) {
                List<DeadRow> batch = matches.subList(from, Math.min(matches.size(), from + CHUNK));
                tally.revived(batch.size(), ledger.revive(ord.getAsLong(), batch));
            }
        });
    }

    /**
     * Revives one dead delivery: hook {@code seq} of {@code tenant} to {@code sink} (the seq and sink a
     * {@link io.ankusa.api.DeadLetter} carries). Reads it with {@link Queue#hook(String, long)} (point
     * reads: the hook, its delivery rows, their index keys), and revives it if it is dead, under its
     * tenant's stripe like every revival. Audited as one entry for {@code tenant} ({@code revived = 1},
     * or {@code skipped_gone = 1} when someone else revived or purged it between the read and the
     * revival); a delivery that is not dead or not found records nothing.
     *
     * @param tenant the tenant the hook belongs to
     * @param seq    the hook's seq
     * @param sink   the sink number, 0..65 535
     * @return whether it was replayed, is not dead, or was not found
     * @throws IllegalArgumentException when {@code sink} is out of range
     */
    public DeliveryReplay replayDelivery(String tenant, long seq, int sink) {
        Objects.requireNonNull(tenant, "tenant");
        if (sink < 0 || sink > 0xFFFF) {
            throw new IllegalArgumentException("sink out of range 0..65535: " + sink);
        }
        Optional<StoredDelivery> delivery = queue.hook(tenant, seq).flatMap(h -> h.delivery(sink));
        if (delivery.isEmpty()) {
            return DeliveryReplay.NOT_FOUND;
        }
        if (delivery.get().state() != DeliveryState.DEAD) {
            return DeliveryReplay.NOT_DEAD;
        }
        OptionalLong ord = LedgerSource.of(queue).tenantDirectory().ord(tenant);
        if (ord.isEmpty()) {
            return DeliveryReplay.NOT_FOUND;
        }
        // A dead delivery's row records its dead-letter time as its last attempt's.
        DeadRow row = new DeadRow(ord.getAsLong(), delivery.get().lastAttemptAt().map(Instant::toEpochMilli).orElse(0L),
                seq, sink);
        ReplayResult result = audited(tenant, tally -> tally.revived(1, ledger.revive(ord.getAsLong(), List.of(row))));
        return result.revived() == 1 ? DeliveryReplay.REPLAYED : DeliveryReplay.NOT_DEAD;
    }

    /**
     * A bulk replay of the letters {@code filter} matches, from the newest; not started: run it
     * with {@link ReplayJob#run()} on a thread of the caller's choosing.
     *
     * @param filter which dead letters to replay
     * @return the job
     */
    public ReplayJob job(DeadLetterFilter filter) {
        return new ReplayJob(this, queue, filter, Optional.empty());
    }

    /**
     * A bulk replay of the letters {@code filter} matches, older than {@code resumeFrom} (the
     * {@link ReplayProgress#resumeFrom()} of a job cancelled or failed before); not started.
     *
     * @param filter     which dead letters to replay
     * @param resumeFrom where the earlier job stood
     * @return the job
     */
    public ReplayJob job(DeadLetterFilter filter, DeadLetterCursor resumeFrom) {
        return new ReplayJob(this, queue, filter, Optional.of(Objects.requireNonNull(resumeFrom, "resumeFrom")));
    }

    /**
     * Revives {@code letters} of {@code tenant} in one commit, audited as a replay of that tenant;
     * empty when the queue does not know the tenant (erased: its letters are listed as
     * {@code #<ordinal>}).
     */
    Optional<ReplayResult> reviveLetters(String tenant, List<DeadLetter> letters) {
        OptionalLong ord = LedgerSource.of(queue).tenantDirectory().ord(tenant);
        if (ord.isEmpty()) {
            return Optional.empty();
        }
        List<DeadRow> rows = letters.stream()
                .map(l -> new DeadRow(ord.getAsLong(), l.deadAt().toEpochMilli(), l.seq(), l.sink())).toList();
        return Optional.of(audited(tenant, tally -> tally.revived(rows.size(), ledger.revive(ord.getAsLong(), rows))));
    }

    /** The tenant's dead letters dead-lettered after {@code startedAt}. */
    private long countNewer(long ord, long startedAt) {
        long newer = 0;
        Optional<DeadRow> after = Optional.empty();
        while (true) {
            List<DeadEntry> page = ledger.deadEntries(ord, after, CHUNK);
            for (DeadEntry entry : page) {
                if (entry.row().at() > startedAt) {
                    newer++;
                }
            }
            if (page.size() < CHUNK) {
                return newer;
            }
            after = Optional.of(page.get(page.size() - 1).row());
        }
    }

    /**
     * Revives the newest page of the node's dead letters: the letters
     * {@code queue.deadLetters(DeadLetterQuery.all().limit(limit))} would list (less any revived or
     * purged meanwhile). Page on with {@link #replayPage(DeadLetterCursor, int)} and
     * {@link ReplayPage#next()}.
     *
     * @param limit how many dead letters at most, 1..10 000
     * @return how many rows were revived, and the cursor to the next page
     * @throws IllegalArgumentException when {@code limit} is outside 1..{@value DeadLetterQuery#MAX_LIMIT}
     */
    public ReplayPage replayPage(int limit) {
        return page(Optional.empty(), limit);
    }

    /**
     * Revives the page of the node's dead letters that follows {@code after}, newest first: the
     * letters {@code queue.deadLetters(DeadLetterQuery.all().limit(limit).after(after))} would list
     * (less any revived or purged meanwhile). Rows dead-lettered after the walk began (a replayed
     * row failing again, say) are newer than its cursors, so paging never meets them and ends.
     * Audited as one entry per tenant whose rows the page revived (an erased tenant as
     * {@code #<ordinal>}, as in dead-letter listings).
     *
     * @param after the cursor of the page before, from {@link ReplayPage#next()}
     * @param limit how many dead letters at most, 1..10 000
     * @return how many rows were revived, and the cursor to the next page
     * @throws IllegalArgumentException when {@code limit} is outside 1..{@value DeadLetterQuery#MAX_LIMIT}
     */
    public ReplayPage replayPage(DeadLetterCursor after, int limit) {
        return page(Optional.of(Objects.requireNonNull(after, "after")), limit);
    }

    private ReplayPage page(Optional<DeadLetterCursor> after, int limit) {
        if (limit < 1 || limit > DeadLetterQuery.MAX_LIMIT) {
            throw new IllegalArgumentException("limit must be in 1.." + DeadLetterQuery.MAX_LIMIT + ": " + limit);
        }
        // The node's dead index is ordered by (at, seq, sink) alone: the position's ordinal plays no part.
        // One more than the limit is read to know whether the walk goes on, as a dead-letter page does.
        List<DeadEntry> read = ledger.deadPage(after.map(c -> new DeadRow(1, c.at(), c.seq(), c.sink())), limit + 1);
        List<DeadRow> page = read.subList(0, Math.min(read.size(), limit)).stream().map(DeadEntry::row).toList();
        Map<Long, List<DeadRow>> byTenant = new LinkedHashMap<>();
        page.forEach(r -> byTenant.computeIfAbsent(r.ord(), o -> new ArrayList<>()).add(r));
        long revived = 0;
        long skipped = 0;
        for (Map.Entry<Long, List<DeadRow>> tenant : byTenant.entrySet()) {
            long ord = tenant.getKey();
            String name = LedgerSource.of(queue).tenantDirectory().name(ord).orElse("#" + ord);
            ReplayResult result = audited(name, tally -> tally.revived(tenant.getValue().size(),
                    ledger.revive(ord, tenant.getValue())));
            revived += result.revived();
            skipped += result.skipped();
        }
        if (read.size() <= limit) {
            return ReplayPage.last(Math.toIntExact(revived), Math.toIntExact(skipped));
        }
        DeadRow last = page.get(page.size() - 1);
        return ReplayPage.followedBy(Math.toIntExact(revived), Math.toIntExact(skipped),
                new DeadLetterCursor(last.at(), last.seq(), last.sink()));
    }

    /**
     * Runs {@code replay} on {@code tenant}'s rows and records what it revived and skipped:
     * nothing when it did neither; with {@code interrupted = 1} (and the exception rethrown) when
     * it threw after reviving or skipping some.
     */
    private ReplayResult audited(String tenant, Consumer<Tally> replay) {
        Tally tally = new Tally();
        try {
            replay.accept(tally);
        } catch (RuntimeException e) {
            if (tally.any()) {
                try {
                    record(tenant, tally, true);
                } catch (RuntimeException auditFailure) {
                    e.addSuppressed(auditFailure);
                }
            }
            throw e;
        }
        if (tally.any()) {
            record(tenant, tally, false);
        }
        return new ReplayResult(tally.revived, tally.newer, tally.gone);
    }

    private void record(String tenant, Tally tally, boolean interrupted) {
        Map<String, Long> counts = new LinkedHashMap<>();
        counts.put("revived", tally.revived);
        if (tally.newer > 0) {
            counts.put("skipped_newer", tally.newer);
        }
        if (tally.gone > 0) {
            counts.put("skipped_gone", tally.gone);
        }
        if (interrupted) {
            counts.put("interrupted", 1L);
        }
        LedgerSource.of(queue).auditRecorder().recordAudit(AuditAction.REPLAY, tenant, counts, actor);
    }

    /** What a replay has revived and skipped so far, kept up to date batch by batch so an interruption knows. */
    private static final class Tally {
        private long revived;
        private long newer;
        private long gone;

        /** A batch of {@code read} rows of which {@code n} were revived: the rest were gone. */
        void revived(int read, long n) {
            revived += n;
            gone += read - n;
        }

        void newer(long n) {
            newer += n;
        }

        boolean any() {
            return revived + newer + gone > 0;
        }
    }
}

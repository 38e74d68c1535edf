package io.ankusa.dispatch;

import io.ankusa.queue.Queue;
import io.ankusa.queue.ledger.DeadEntry;
import io.ankusa.queue.ledger.DeadRow;
import io.ankusa.queue.ledger.DeliveryLedger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Replays dead letters: each revived row becomes due now as a first attempt (kind 0, attempts
 * reset), with its counters (dead −1, pending +1) and its active marker in the same batch, under
 * its tenant's stripe; a started {@link Pipeline} then delivers it like a new hook. A row purged or
 * revived by someone else meanwhile is skipped, never counted twice.
 *
 * <p>Replays by tenant and by hook id touch only rows dead-lettered before the replay started, so
 * a replayed row that fails for good again during the replay is not replayed a second time.
 * Thread-safe.
 */
public final class Replayer {

    /** Dead rows read and revived per batch. */
    static final int CHUNK = 500;

    private final Queue queue;
    private final DeliveryLedger ledger;

    private Replayer(Queue queue) {
        this.queue = queue;
        this.ledger = DeliveryLedger.of(queue);
    }

    /** The replayer of {@code queue}. */
    public static Replayer of(Queue queue) {
        return new Replayer(Objects.requireNonNull(queue, "queue"));
    }

    /**
     * Revives every dead row of {@code tenant} (dead-lettered before now), oldest first, in batches
     * of 500: one range of the tenant's dead index per batch. Returns how many; 0 for an unknown
     * tenant (no scan).
     */
    public long replayTenant(String tenant) {
        OptionalLong ord = queue.ord(Objects.requireNonNull(tenant, "tenant"));
        if (ord.isEmpty()) {
            return 0;
        }
        long startedAt = ledger.clock().millis();
        long revived = 0;
        while (true) {
            List<DeadRow> rows = ledger.deadRows(ord.getAsLong(), CHUNK);
            List<DeadRow> before = rows.stream().filter(r -> r.at() <= startedAt).toList();
            if (before.isEmpty()) {
                return revived;
            }
            revived += ledger.revive(ord.getAsLong(), before);
            if (before.size() < rows.size() || rows.size() < CHUNK) {
                return revived;
            }
        }
    }

    /**
     * Revives {@code tenant}'s dead rows of the hook {@code hookId} (every sink; every hook of that
     * id, should two sources have used it), dead-lettered before now. Reads the tenant's dead index
     * with the ids its dead-letter values carry, no hook: O(the tenant's dead letters). Returns how
     * many; 0 for an unknown tenant.
     */
    public long replayHook(String tenant, String hookId) {
        Objects.requireNonNull(hookId, "hookId");
        OptionalLong ord = queue.ord(Objects.requireNonNull(tenant, "tenant"));
        if (ord.isEmpty()) {
            return 0;
        }
        long startedAt = ledger.clock().millis();
        List<DeadRow> matches = new ArrayList<>();
        Optional<DeadRow> after = Optional.empty();
        while (true) {
            List<DeadEntry> page = ledger.deadEntries(ord.getAsLong(), after, CHUNK);
            for (DeadEntry entry : page) {
                if (entry.row().at() <= startedAt && entry.hookId().equals(hookId)) {
                    matches.add(entry.row());
                }
            }
            if (page.size() < CHUNK || page.get(page.size() - 1).row().at() > startedAt) {
                break;
            }
            after = Optional.of(page.get(page.size() - 1).row());
        }
        long revived = 0;
        for (int from = 0; from < matches.size(); from += CHUNK) {
            revived += ledger.revive(ord.getAsLong(), matches.subList(from, Math.min(matches.size(), from + CHUNK)));
        }
        return revived;
    }

    /**
     * Revives one page of the node's dead letters, newest first: up to {@code limit} rows
     * dead-lettered before {@code before} (from the newest when empty). Page on with
     * {@link ReplayPage#next()}: rows dead-lettered after the first page was read (a replayed row
     * failing again, say) lie before its position, so paging never meets them.
     *
     * @throws IllegalArgumentException when {@code limit} is below 1
     */
    public ReplayPage replayPage(Optional<DeadLetterPosition> before, int limit) {
        Objects.requireNonNull(before, "before");
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be positive: " + limit);
        }
        // The node's dead index is ordered by (at, seq, sink) alone: the position's tenant plays no part.
        List<DeadEntry> page = ledger.deadPage(before.map(p -> new DeadRow(1, p.deadAt(), p.seq(), p.sink())), limit);
        Map<Long, List<DeadRow>> byTenant = new LinkedHashMap<>();
        page.forEach(e -> byTenant.computeIfAbsent(e.row().ord(), o -> new ArrayList<>()).add(e.row()));
        int revived = 0;
        for (Map.Entry<Long, List<DeadRow>> tenant : byTenant.entrySet()) {
            revived += ledger.revive(tenant.getKey(), tenant.getValue());
        }
        Optional<DeadLetterPosition> next = Optional.empty();
        if (page.size() == limit) {
            DeadRow last = page.get(page.size() - 1).row();
            next = Optional.of(new DeadLetterPosition(last.at(), last.seq(), last.sink()));
        }
        return new ReplayPage(revived, next);
    }
}

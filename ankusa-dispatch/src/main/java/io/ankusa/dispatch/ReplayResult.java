package io.ankusa.dispatch;

import java.util.Objects;

/**
 * What a replay by tenant or by hook id did: whether it found what it was asked to replay, the dead
 * letters it revived, and those it skipped, by reason. Nothing is skipped silently: every skipped
 * letter is counted here and in the replay's audit entry ({@code skipped_newer}, {@code skipped_gone}),
 * and a replay that found nothing says why in {@link #match()} — so a tenant and a hook id passed
 * the wrong way round answer {@link Match#UNKNOWN_TENANT}, not a bare zero.
 *
 * @param match        whether the tenant is known and had matching dead letters
 * @param revived      dead letters that became due again
 * @param skippedNewer letters dead-lettered after the replay began (by the queue clock, which
 *                     never goes backwards): left dead so that a replayed row failing again during
 *                     the replay is not replayed twice; a later replay revives them
 * @param skippedGone  letters the replay read that were revived or purged by someone else before
 *                     its batch committed (never counted twice)
 */
public record ReplayResult(Match match, long revived, long skippedNewer, long skippedGone) {

    /** What a replay found to replay. */
    public enum Match {
        /** The queue has never seen the tenant (or it was erased): nothing was read. */
        UNKNOWN_TENANT,
        /** The tenant is known but has no dead letter to replay (of that hook id, for a replay by hook). */
        NO_DEAD_LETTER,
        /** At least one dead letter matched; the counts say what became of them. */
        MATCHED
    }

    /**
     * Checks the counts.
     *
     * @param match        whether the tenant is known and had matching dead letters
     * @param revived      dead letters that became due again
     * @param skippedNewer letters dead-lettered after the replay began, left dead
     * @param skippedGone  letters revived or purged by someone else before the replay's batch committed
     */
    public ReplayResult {
        Objects.requireNonNull(match, "match");
        if (revived < 0 || skippedNewer < 0 || skippedGone < 0) {
            throw new IllegalArgumentException("counts must not be negative: " + revived + ", " + skippedNewer + ", "
                    + skippedGone);
        }
        if ((match == Match.MATCHED) != (revived + skippedNewer + skippedGone > 0)) {
            throw new IllegalArgumentException(match + " does not fit the counts " + revived + ", " + skippedNewer
                    + ", " + skippedGone);
        }
    }

    /**
     * The result of a replay of a known tenant: {@link Match#MATCHED} when any count is above 0,
     * else {@link Match#NO_DEAD_LETTER}.
     *
     * @param revived      dead letters that became due again
     * @param skippedNewer letters dead-lettered after the replay began, left dead
     * @param skippedGone  letters revived or purged by someone else before the replay's batch committed
     */
    public ReplayResult(long revived, long skippedNewer, long skippedGone) {
        this(revived + skippedNewer + skippedGone > 0 ? Match.MATCHED : Match.NO_DEAD_LETTER, revived, skippedNewer,
                skippedGone);
    }

    /** A replay of a tenant the queue does not know. */
    static final ReplayResult UNKNOWN_TENANT = new ReplayResult(Match.UNKNOWN_TENANT, 0, 0, 0);

    /**
     * The letters skipped for any reason.
     *
     * @return {@code skippedNewer + skippedGone}
     */
    public long skipped() {
        return skippedNewer + skippedGone;
    }
}

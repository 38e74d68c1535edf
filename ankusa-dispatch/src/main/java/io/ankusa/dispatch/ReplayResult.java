package io.ankusa.dispatch;

/**
 * What a replay by tenant or by hook id did: the dead letters it revived, and those it skipped,
 * by reason. Nothing is skipped silently: every skipped letter is counted here and in the replay's
 * audit entry ({@code skipped_newer}, {@code skipped_gone}).
 *
 * @param revived      dead letters that became due again
 * @param skippedNewer letters dead-lettered after the replay began (by the queue clock, which
 *                     never goes backwards): left dead so that a replayed row failing again during
 *                     the replay is not replayed twice; a later replay revives them
 * @param skippedGone  letters the replay read that were revived or purged by someone else before
 *                     its batch committed (never counted twice)
 */
public record ReplayResult(long revived, long skippedNewer, long skippedGone) {

    /**
     * Checks the counts.
     *
     * @param revived      dead letters that became due again
     * @param skippedNewer letters dead-lettered after the replay began, left dead
     * @param skippedGone  letters revived or purged by someone else before the replay's batch committed
     */
    public ReplayResult {
        if (revived < 0 || skippedNewer < 0 || skippedGone < 0) {
            throw new IllegalArgumentException("counts must not be negative: " + revived + ", " + skippedNewer + ", "
                    + skippedGone);
        }
    }

    /** A replay that found nothing (an unknown tenant, no dead letters). */
    static final ReplayResult NONE = new ReplayResult(0, 0, 0);

    /**
     * The letters skipped for any reason.
     *
     * @return {@code skippedNewer + skippedGone}
     */
    public long skipped() {
        return skippedNewer + skippedGone;
    }
}

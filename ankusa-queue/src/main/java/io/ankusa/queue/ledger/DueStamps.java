package io.ankusa.queue.ledger;

import java.util.Objects;
import java.util.TreeMap;

/**
 * The stamps of due rows being written: every writer of a due row takes its due time's lower
 * bound here, from the queue clock, and holds it until the batch holding the row is committed
 * (written, visible to a reader opened afterwards) or failed. The marker cleanup reads its
 * {@linkplain #horizon() horizon} here and deletes no marker of the horizon's second or later.
 *
 * <p><b>Why.</b> A writer stamps its rows with a time it read before it commits them: the ingest
 * writer assembles a batch while earlier ones are being written, the settler writes the retries
 * of outcomes it collected. Without a horizon, a row stamped in an earlier second and committed
 * between the cleanup's first read and its deletes loses its second's marker to the deletes; the
 * cleanup's check puts it back, but a crash between the deletes and that check would leave the
 * row due and counted with no marker, so the feed would never offer it again (a kill -9
 * soak found one). With the horizon no such delete happens:
 * <ul>
 * <li>{@link #hold()} reads the clock and registers the reading as one step, and
 *     {@link #horizon()} reads the clock and the oldest stamp held as one step (one lock), so
 *     every stamp is either held when a horizon is read (the horizon is at or before it) or taken
 *     after (at or after the horizon: the clock never goes back, and a stamp is never below a
 *     horizon already read).</li>
 * <li>A writer stamps its rows at or after its held stamp ({@link Held#atLeast}).</li>
 * <li>So a row committed after the cleanup read its horizon is due at or after the horizon, in
 *     a second whose marker the cleanup keeps; a row whose stamp was released before the horizon
 *     was read was committed before, and the cleanup's first read (which follows the horizon)
 *     sees it, and keeps its marker too. A crash between the deletes and the check can only lose
 *     markers of seconds that hold no row.</li>
 * </ul>
 * Holding a stamp longer than its commit is safe (the cleanup keeps a marker it could have
 * deleted: one empty visit); releasing it before its commit returns is not.
 *
 * <p>Thread-safe: every method is one short critical section.
 */
public final class DueStamps {

    private final QueueClock clock;
    /** Stamps held: value → how many holders. */
    private final TreeMap<Long, Integer> held = new TreeMap<>();
    /** The latest horizon read: no stamp is taken below it. */
    private long floor = Long.MIN_VALUE;

    /**
     * The stamps of {@code clock}'s queue.
     *
     * @param clock the queue clock every due time of the queue is read from
     */
    public DueStamps(QueueClock clock) {
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /**
     * Reads the clock and holds the reading (raised to the latest horizon read, for a clock that
     * may step back in tests) until the returned stamp is closed: the due times of the rows the
     * caller writes are at or after it ({@link Held#atLeast}). Close it once the batch holding
     * them is committed, or failed.
     *
     * @return the stamp held
     */
    public synchronized Held hold() {
        long stamp = Math.max(clock.millis(), floor);
        held.merge(stamp, 1, Integer::sum);
        return new Held(stamp);
    }

    /**
     * The cleanup horizon: the earlier of the clock's "now" and the oldest stamp held. A due row
     * committed after this call is due at or after it. Read it before the reads it guards.
     *
     * @return epoch milliseconds
     */
    public synchronized long horizon() {
        long now = clock.millis();
        long horizon = held.isEmpty() ? now : Math.min(now, held.firstKey());
        floor = Math.max(floor, horizon);
        return horizon;
    }

    /**
     * The clock the stamps are read from.
     *
     * @return the queue clock
     */
    public QueueClock clock() {
        return clock;
    }

    /**
     * How many stamps are held now (for tests and diagnostics).
     *
     * @return the number of stamps held
     */
    public synchronized int heldCount() {
        return held.values().stream().mapToInt(Integer::intValue).sum();
    }

    private synchronized void release(long stamp) {
        held.computeIfPresent(stamp, (s, n) -> n == 1 ? null : n - 1);
    }

    /** One stamp held; closing it (once or more) releases it. */
    public final class Held implements AutoCloseable {

        private final long millis;
        private boolean closed;

        private Held(long millis) {
            this.millis = millis;
        }

        /**
         * The stamp: the clock's reading when it was taken (epoch milliseconds).
         *
         * @return epoch milliseconds
         */
        public long millis() {
            return millis;
        }

        /**
         * A due time for a row under this stamp: {@code at}, or the stamp when {@code at} is
         * earlier (a retry "now" read before the stamp, say).
         *
         * @param at the due time the writer means
         * @return the due time to write
         */
        public long atLeast(long at) {
            return Math.max(at, millis);
        }

        /** Releases the stamp (again: nothing). */
        @Override
        public void close() {
            synchronized (DueStamps.this) {
                if (closed) {
                    return;
                }
                closed = true;
                release(millis);
            }
        }
    }
}

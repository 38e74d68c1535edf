package io.ankusa.tests.crash;

import io.ankusa.api.ErasureResult;
import io.ankusa.store.Durability;
import io.ankusa.store.Store;
import io.ankusa.store.WriteBatch;
import io.ankusa.tests.operator.ErasureSeed;
import io.ankusa.tests.queue.QueueUnderTest;
import io.ankusa.tests.support.ForwardingStore;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * The program the erase kill -9 test kills: a child JVM that opens a seeded store (the parent
 * seeded it with {@link ErasureSeed}) and erases {@link ErasureSeed#VICTIM}, stopping after each
 * commit of the erase until the parent says to go on, so the parent can SIGKILL it with exactly
 * {@code k} of the erase's commits durable.
 *
 * <p>Protocol (one line each, flushed): {@code erasing} before the erase starts; {@code commit k}
 * after the erase's {@code k}-th commit returned (it is synced), then it reads one line from stdin
 * ({@code go}) before returning to the erase; {@code erased <counts>} when the erase finished,
 * then it waits for stdin to close; {@code error <text>} when the erase fails. When stdin closes
 * (the parent died, or is done) it halts.
 *
 * <p>Arguments: {@code <backend> <directory>}.
 */
public final class ErasingQueueProcess {

    private static final PrintStream OUT = new PrintStream(System.out, true, StandardCharsets.UTF_8);
    private static final BufferedReader IN = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));

    private ErasingQueueProcess() {
    }

    /** A store that announces each commit once armed, and waits for the parent's word after it. */
    private static final class GatedStore extends ForwardingStore {
        private volatile boolean armed;
        private int commits;

        GatedStore(Store delegate) {
            super(delegate);
        }

        @Override
        public void commit(WriteBatch batch, Durability durability) {
            super.commit(batch, durability);
            if (armed) {
                gate();
            }
        }

        // The erase's commits come one at a time (its own thread, or the writer's chore it waits for).
        private synchronized void gate() {
            commits++;
            OUT.println("commit " + commits);
            if (!"go".equals(readLine())) {
                Runtime.getRuntime().halt(3);
            }
        }
    }

    /** Runs one erase; see the class comment. */
    public static void main(String[] args) {
        String backend = args[0];
        Path directory = Path.of(args[1]);
        GatedStore[] gated = new GatedStore[1];
        // As the parent opens it: QueueUnderTest's clock and settings, archive on. Opening moves the
        // seed's inflight rows back to due; the gate is armed only for the erase.
        try (QueueUnderTest q = QueueUnderTest.open(backend, directory, b -> b.archive(true), s -> {
            gated[0] = new GatedStore(s);
            return gated[0];
        })) {
            OUT.println("erasing");
            gated[0].armed = true;
            ErasureResult result = q.queue().eraseTenant(ErasureSeed.VICTIM);
            gated[0].armed = false;
            OUT.println("erased " + result);
        } catch (RuntimeException e) {
            OUT.println("error " + e);
        }
        while (readLine() != null) {
            // wait for the parent to close stdin or kill us
        }
        Runtime.getRuntime().halt(0);
    }

    private static String readLine() {
        try {
            return IN.readLine();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

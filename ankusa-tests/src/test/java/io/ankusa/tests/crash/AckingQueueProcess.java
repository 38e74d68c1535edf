package io.ankusa.tests.crash;

import io.ankusa.api.Hook;
import io.ankusa.api.QueueConfig;
import io.ankusa.api.Receipt;
import io.ankusa.queue.Queue;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.stream.Collectors;

/**
 * The program the kill -9 test kills: a child JVM that opens a queue, ingests hooks over many
 * tenants from several producer threads with synced acknowledgements, and prints one line per
 * acknowledged hook to stdout, flushed before anything else is printed. With the {@code dispatch}
 * mode it also runs a {@link PipelineDispatcher} (the real pipeline) that claims and settles while
 * hooks arrive.
 *
 * <p>Protocol (one line each, flushed): {@code ready}; {@code ack <hook id> <tenant> <seq>
 * <sink,sink,…> .} after a hook's future completed (the final dot tells a whole line from one cut
 * by the kill); {@code sent <hook id> <sink>} when the sink is called with a delivery; {@code settled <n>}
 * after n deliveries were settled; {@code error <text>}
 * when something fails that should not. It never exits by itself while its parent lives: the
 * parent kills it with SIGKILL. When stdin closes (the parent died) it halts.
 *
 * <p>Arguments: {@code <backend> <directory> <seed> <ingest|dispatch>}.
 */
public final class AckingQueueProcess {

    /** Tenants the hooks are spread over (plus hooks without a tenant, filed under default). */
    static final int TENANTS = 300;
    static final int PRODUCERS = 3;
    static final int IN_FLIGHT_PER_PRODUCER = 96;
    /** With the dispatcher: fewer hooks in flight, so that claims and settles keep up with ingest. */
    static final int IN_FLIGHT_PER_PRODUCER_DISPATCHING = 4;

    private static final BlockingQueue<String> LINES = new LinkedBlockingQueue<>();
    private static final PrintWriter OUT = new PrintWriter(new OutputStreamWriter(new FileOutputStream(FileDescriptor.out),
            StandardCharsets.UTF_8));

    private AckingQueueProcess() {
    }

    /** Runs until killed; see the class comment. */
    public static void main(String[] args) throws Exception {
        String backend = args[0];
        Path directory = Path.of(args[1]);
        long seed = Long.parseLong(args[2]);
        boolean dispatch = args[3].equals("dispatch");

        Thread printer = new Thread(AckingQueueProcess::printLines, "printer");
        printer.setDaemon(true);
        printer.start();
        Thread orphanGuard = new Thread(AckingQueueProcess::haltWhenParentGoes, "orphan-guard");
        orphanGuard.setDaemon(true);
        orphanGuard.start();

        // No housekeeping: the parent's audit finds a delivered row of a hook that still has others
        // by its ?c cleared marker, which reclaim would consume (reclaim has its own tests). A hook
        // whose last row a settle delivered is deleted by that settle: the audit accepts it gone
        // only if every sink of it was seen sent, which is why "sent" is written before the sink
        // returns.
        Queue queue = Queue.open(QueueConfig.builder(directory).backend(backend)
                .housekeepingInterval(Duration.ZERO).build());
        if (dispatch) {
            new PipelineDispatcher(queue, seed, d -> emitNow("sent " + d.hookId() + " " + d.sink()),
                    n -> emit("settled " + n)).start();
        }
        emit("ready");
        List<Thread> producers = new ArrayList<>();
        for (int p = 0; p < PRODUCERS; p++) {
            int producer = p;
            int inFlight = dispatch ? IN_FLIGHT_PER_PRODUCER_DISPATCHING : IN_FLIGHT_PER_PRODUCER;
            Thread t = new Thread(() -> produce(queue, new SplittableRandom(seed * 31 + producer), producer, inFlight),
                    "producer-" + p);
            t.start();
            producers.add(t);
        }
        for (Thread t : producers) {
            t.join();
        }
    }

    private static void produce(Queue queue, SplittableRandom random, int producer, int limit) {
        Semaphore inFlight = new Semaphore(limit);
        for (long i = 0; ; i++) {
            inFlight.acquireUninterruptibly();
            Hook hook = hook(random, "p" + producer + "-h" + i);
            queue.ingest(hook).whenComplete((receipt, failure) -> {
                inFlight.release();
                if (failure != null) {
                    emit("error ingest of " + hook.id() + ": " + failure);
                } else {
                    emit(ackLine(hook, receipt));
                }
            });
        }
    }

    private static Hook hook(SplittableRandom random, String id) {
        int tenant = random.nextInt(TENANTS + 1);
        int sinkCount = 1 + random.nextInt(3);
        int[] sinks = new int[sinkCount];
        for (int s = 0; s < sinkCount; s++) {
            sinks[s] = s * 5 + random.nextInt(5);
        }
        byte[] payload = new byte[random.nextInt(600)];
        random.nextBytes(payload);
        Hook.Builder b = Hook.builder().id(id).sourceId("crash").payload(payload).sinks(sinks);
        if (tenant < TENANTS) {
            b.tenantId("tenant-" + tenant);
        }
        return b.build();
    }

    private static String ackLine(Hook hook, Receipt receipt) {
        return "ack " + hook.id() + " " + hook.tenant() + " " + receipt.seq() + " "
                + hook.sinks().stream().map(String::valueOf).collect(Collectors.joining(",")) + " .";
    }

    private static void emit(String line) {
        LINES.add(line);
    }

    /**
     * Writes {@code line} and flushes it on the caller's thread, before the caller goes on: a
     * {@code sent} line is out before the sink returns, so before the settle that may delete the hook.
     */
    private static void emitNow(String line) {
        synchronized (OUT) {
            OUT.println(line);
            OUT.flush();
        }
    }

    /** Writes lines as they come, flushing whenever the backlog is written: a line is out before any later one. */
    private static void printLines() {
        List<String> drained = new ArrayList<>();
        try {
            while (true) {
                drained.add(LINES.take());
                LINES.drainTo(drained);
                synchronized (OUT) {
                    drained.forEach(OUT::println);
                    OUT.flush();
                }
                drained.clear();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void haltWhenParentGoes() {
        try {
            while (System.in.read() >= 0) {
                // the parent never writes; EOF means it is gone
            }
        } catch (IOException e) {
            // same
        }
        Runtime.getRuntime().halt(3);
    }
}

package io.ankusa.tests.kafka;

import io.ankusa.api.AttemptErrorClass;
import io.ankusa.api.events.AttemptFinished;
import io.ankusa.api.events.QueueListener;
import io.ankusa.dispatch.sink.Sink;
import io.ankusa.dispatch.sink.SinkOutcome;
import io.ankusa.kafka.KafkaNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

/**
 * A child JVM's main: one {@link KafkaNode} whose sink appends each delivered hook id to a file
 * (one unbuffered write per delivery, before the outcome is reported, so a kill -9 loses no line
 * of a delivery the node settled). Arguments: bootstrap, topic, group, root, backend, deliveries
 * file, and optionally a tenant whose endpoint fails every attempt (a retry, nothing written).
 * Prints {@code ready} once started; {@code stop} on stdin closes the node and exits.
 */
public final class NodeProcess {

    private NodeProcess() {
    }

    /**
     * Logs to stderr each attempt that ran out the sink deadline: it is retried, and its hook may
     * be delivered again by the same node (a duplicate no failover made).
     */
    private static final class DeadlineLog implements QueueListener {
        @Override
        public void onAttemptFinished(AttemptFinished event) {
            if (event.errorClass() == AttemptErrorClass.SINK_TIMEOUT) {
                System.err.println("sink deadline missed: " + event.hookId() + " attempt " + event.attempt());
            }
        }
    }

    /**
     * Runs the node until {@code stop} or a kill.
     *
     * @param args bootstrap, topic, group, root, backend, deliveries file[, failing tenant]
     * @throws IOException when the deliveries file cannot be opened
     */
    public static void main(String[] args) throws IOException {
        String backend = args[4];
        String failing = args.length > 6 ? args[6] : null;
        try (FileChannel out = FileChannel.open(Path.of(args[5]), StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.APPEND)) {
            // A delivery takes a millisecond, as a fast receiver would, so that a kill lands mid-delivery.
            Executor later = CompletableFuture.delayedExecutor(1, TimeUnit.MILLISECONDS);
            Sink sink = delivery -> CompletableFuture.supplyAsync(() -> {
                if (delivery.tenantId().equals(failing)) {
                    return SinkOutcome.retry("the endpoint fails every attempt");
                }
                byte[] line = (delivery.hookId() + "\n").getBytes(StandardCharsets.UTF_8);
                try {
                    synchronized (out) {
                        out.write(ByteBuffer.wrap(line));
                    }
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
                return SinkOutcome.delivered();
            }, later);
            // A sink deadline far above a delivery's millisecond: a node starved of CPU for seconds does not
            // miss it, so a hook delivered twice by one node comes from a change of owner, not from a retry.
            KafkaNode node = KafkaNode.builder(args[0], args[1], args[2], Path.of(args[3]), sink)
                    .queueConfig(b -> b.backend(backend).housekeepingInterval(Duration.ZERO))
                    .pipelineConfig(b -> b.tickInterval(Duration.ofMillis(20)).sinkDeadline(Duration.ofSeconds(30))
                            .listener(new DeadlineLog()))
                    .property("session.timeout.ms", 6000).property("heartbeat.interval.ms", 500)
                    .commitInterval(Duration.ofMillis(200))
                    .build().start();
            System.out.println("ready");
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            String line;
            while ((line = in.readLine()) != null && !line.equals("stop")) {
                // wait for stop
            }
            node.close();
            System.out.println("stopped");
        }
    }
}

package io.ankusa.tests.kafka;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerInterceptor;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * Freezes a node's poll loop inside {@code poll}, as a long pause would, without a seam in the
 * node: a consumer interceptor ({@code interceptor.classes}) whose {@code onConsume}, run on the
 * polling thread before {@code poll} returns its records, blocks once armed until released. A node
 * opts in with the consumer properties {@code interceptor.classes} = this class and {@link #ID} =
 * the name of a {@link Switch} from {@link #register}. Only a group member freezes: the node's
 * dead-letter reader (no {@code group.id}) gets the same properties and ignores them. The
 * heartbeat thread is not blocked, so the node stays in the group (until {@code max.poll.interval.ms}).
 */
public final class PollFreeze implements ConsumerInterceptor<String, byte[]> {

    /** The consumer property naming the switch. */
    static final String ID = "ankusa.test.poll-freeze";

    private static final Map<String, Switch> SWITCHES = new ConcurrentHashMap<>();

    private Switch control;

    /** What Kafka instantiates from {@code interceptor.classes}. */
    public PollFreeze() {
    }

    /**
     * A new switch named {@code name}, for the node given the property {@link #ID} = {@code name}.
     *
     * @param name a name no other switch of the test JVM has
     * @return the switch, not armed
     */
    static Switch register(String name) {
        Switch control = new Switch();
        if (SWITCHES.putIfAbsent(name, control) != null) {
            throw new IllegalStateException("switch " + name + " exists");
        }
        return control;
    }

    @Override
    public void configure(Map<String, ?> configs) {
        Object name = configs.get(ID);
        if (name != null && configs.get("group.id") != null) {
            control = SWITCHES.get(String.valueOf(name));
        }
    }

    @Override
    public ConsumerRecords<String, byte[]> onConsume(ConsumerRecords<String, byte[]> records) {
        if (control != null) {
            control.holdIfArmed();
        }
        return records;
    }

    @Override
    public void onCommit(Map<TopicPartition, OffsetAndMetadata> offsets) {
    }

    @Override
    public void close() {
    }

    /** Arms a freeze, tells when the poll loop froze, and releases it. */
    static final class Switch {
        private volatile boolean armed;
        private final CountDownLatch frozen = new CountDownLatch(1);
        private final CountDownLatch released = new CountDownLatch(1);
        private volatile long frozenAt;

        /** The next poll that returns records blocks before returning them. */
        void arm() {
            armed = true;
        }

        /** Whether the poll loop is blocked (or was: see {@link #release()}). */
        boolean frozen() {
            return frozen.getCount() == 0;
        }

        /** When the poll loop blocked ({@code System.nanoTime}). */
        long frozenAt() {
            return frozenAt;
        }

        /** Lets the blocked poll return; idempotent, and a later armed poll does not block. */
        void release() {
            armed = false;
            released.countDown();
        }

        private void holdIfArmed() {
            if (!armed) {
                return;
            }
            armed = false;
            frozenAt = System.nanoTime();
            frozen.countDown();
            try {
                // Bounded, so that a test that never releases cannot hang the node's close.
                released.await(5, TimeUnit.MINUTES);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}

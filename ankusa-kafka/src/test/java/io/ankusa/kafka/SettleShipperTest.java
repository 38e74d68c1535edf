package io.ankusa.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Set;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/**
 * The settles' acknowledgement order: the watermark the node commits never passes a hook whose
 * settle Kafka has not acknowledged, with a producer whose acknowledgements the test holds and
 * releases. And the record's key and value shape.
 */
class SettleShipperTest {

    private static final String TOPIC = "hooks.settled";

    private final MockProducer<String, byte[]> producer =
            new MockProducer<>(false, null, new StringSerializer(), new ByteArraySerializer());
    private final Watermark watermark = new Watermark(0, 0, 0);
    private final SettleShipper shipper = new SettleShipper(producer, TOPIC, 3, watermark, List.of());

    /** Offsets 0, 1, 2 read and accepted as seqs 10, 11, 12, one sink each; returns the watermark to commit. */
    private long committable() {
        return shipper.cap(watermark.watermark());
    }

    private void ingestThree() {
        for (int i = 0; i < 3; i++) {
            watermark.submitted(i);
            shipper.accepted(i, 10 + i, 1);
        }
    }

    /** What the listener does: the shipper first, then the watermark. */
    private void settle(long seq, boolean dead) {
        shipper.settled(seq, 0, dead);
        watermark.settled(seq);
    }

    @Test
    void aWatermarkNeverPassesAnUnacknowledgedSettle() {
        ingestThree();
        settle(10, false);
        settle(11, false);
        assertThat(watermark.watermark()).as("the store owes offset 2 only").isEqualTo(2);
        assertThat(committable()).as("nothing published yet").isZero();

        assertThat(shipper.publish()).isEqualTo(2);
        assertThat(producer.history()).extracting(ProducerRecord::key)
                .containsExactly("0\u001f0", "1\u001f0");
        assertThat(producer.history()).allSatisfy(r -> assertThat(r.partition()).isEqualTo(3));
        assertThat(committable()).as("sent, acknowledgements held").isZero();

        assertThat(producer.completeNext()).isTrue();
        assertThat(committable()).as("offset 0 acknowledged, offset 1 not").isEqualTo(1);
        assertThat(producer.errorNext(new org.apache.kafka.common.errors.TimeoutException("held"))).isTrue();
        assertThat(committable()).as("a failed send stays unacknowledged").isEqualTo(1);

        assertThat(shipper.publish()).as("the failed settle is sent again").isEqualTo(1);
        assertThat(producer.completeNext()).isTrue();
        assertThat(committable()).as("every settle acknowledged: the store's own watermark").isEqualTo(2);
    }

    @Test
    void aSettleSeenBeforeItsReceiptHoldsTheWatermarkToo() {
        watermark.submitted(0);
        shipper.settled(20, 0, false); // the pipeline settled before the poll thread saw the receipt
        watermark.settled(20);
        shipper.accepted(0, 20, 1);
        assertThat(watermark.watermark()).isEqualTo(1);
        assertThat(committable()).isZero();
        shipper.publish();
        assertThat(producer.history()).extracting(ProducerRecord::key).containsExactly("0\u001f0");
        producer.completeNext();
        assertThat(committable()).isEqualTo(1);
    }

    @Test
    void aDeadSettleIsSentOnlyOnceItsLetterIsPublished() {
        ingestThree();
        settle(10, true);
        assertThat(shipper.publish()).as("held until the dead-letter catch-up").isZero();
        assertThat(committable()).isZero();
        List<SettleRecord> dead = shipper.takeDead();
        shipper.holdDead(dead); // the catch-up failed
        assertThat(shipper.publish()).isZero();
        shipper.releaseDead(shipper.takeDead()); // the catch-up succeeded
        assertThat(shipper.publish()).isEqualTo(1);
        producer.completeNext();
        assertThat(SettleRecord.decode(producer.history().get(0).key(), producer.history().get(0).value()))
                .isEqualTo(new SettleRecord(0, 0, true));
        assertThat(committable()).isEqualTo(1);
    }

    @Test
    void aCommitTombstonesTheSettlesBelowIt() {
        SettleShipper read = new SettleShipper(producer, TOPIC, 3, watermark,
                List.of(new SettleRecord(4, 0, false), new SettleRecord(4, 2, true), new SettleRecord(9, 1, false)));
        read.skipFrom(4);
        assertThat(read.alreadySettled(4)).isEqualTo(Set.of(0, 2));
        assertThat(read.alreadySettled(9)).isEqualTo(Set.of(1));
        assertThat(read.alreadySettled(5)).isEmpty();
        assertThat(read.committed(5)).isEqualTo(2);
        assertThat(producer.history()).allSatisfy(r -> assertThat(r.value()).isNull());
        assertThat(producer.history()).extracting(ProducerRecord::key)
                .containsExactlyInAnyOrder("4\u001f0", "4\u001f2");
        assertThat(read.alreadySettled(4)).as("forgotten below the committed watermark").isEmpty();
        assertThat(read.committed(5)).as("each key once").isZero();
    }

    @Test
    void theKeyNamesTheHooksOffsetAndTheSinkAndTheValueIsTwoBytes() {
        SettleRecord delivered = new SettleRecord(1234567890123L, 65535, false);
        assertThat(delivered.key()).isEqualTo("1234567890123\u001f65535");
        assertThat(delivered.encode()).containsExactly(1, 1);
        assertThat(new SettleRecord(0, 7, true).encode()).containsExactly(1, 2);
        assertThat(SettleRecord.decode(delivered.key(), delivered.encode())).isEqualTo(delivered);
        assertThat(SettleRecord.offsetOf(delivered.key())).isEqualTo(1234567890123L);
        assertThatThrownBy(() -> SettleRecord.decode("12", new byte[] {1, 1}))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> SettleRecord.decode("12\u001f0", new byte[] {2, 1}))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> SettleRecord.decode("12\u001f0", new byte[] {1, 3}))
                .isInstanceOf(IllegalArgumentException.class);
    }
}

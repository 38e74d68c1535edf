package io.ankusa.queue.deliveries;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ankusa.api.AttemptErrorClass;
import io.ankusa.api.DeliveryAttempt;
import io.ankusa.api.events.AttemptOutcome;
import io.ankusa.keys.AttemptKey;
import io.ankusa.queue.ledger.AttemptRecord;
import io.ankusa.queue.ledger.InflightRow;
import io.ankusa.store.StoreCorruptionException;
import java.time.Duration;
import java.util.Arrays;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/** The attempt history's entry value: version 2 with its flags, and version 1 entries read as before. */
class AttemptEntryCodecTest {

    private static final AttemptKey KEY = new AttemptKey(7, 1_700_000_000_000L, 42, 3, 2);

    private static AttemptRecord record(boolean outOfOrder) {
        return new AttemptRecord(new InflightRow(7, 42, 3, 100), "evt_1", 2, 1_700_000_000_000L,
                AttemptOutcome.RETRY, OptionalInt.of(503), 1_500, AttemptErrorClass.HTTP_5XX, "http 503",
                outOfOrder);
    }

    @Test
    void anEntryRoundTripsWithItsOutOfOrderFlag() {
        for (boolean outOfOrder : new boolean[] {false, true}) {
            DeliveryAttempt a = AttemptHistory.decode("acme", KEY, AttemptHistory.encode(record(outOfOrder), 1));
            assertThat(a.outOfOrder()).isEqualTo(outOfOrder);
            assertThat(a.hookId()).isEqualTo("evt_1");
            assertThat(a.status()).hasValue(503);
            assertThat(a.latency()).isEqualTo(Duration.ofNanos(1_500_000));
            assertThat(a.errorClass()).isEqualTo(AttemptErrorClass.HTTP_5XX);
            assertThat(a.reason()).isEqualTo("http 503");
        }
    }

    @Test
    void aVersionOneEntryWrittenBeforeTheFlagsReadsAsInOrder() {
        // Exactly what the first release wrote: no flags byte after the reason.
        byte[] v1 = new Wire.Out(64).u8(1).u8(2).u16(503).u64(1_500).u16(1).string("http_5xx").string("evt_1")
                .string("http 503").toByteArray();
        DeliveryAttempt a = AttemptHistory.decode("acme", KEY, v1);
        assertThat(a).isEqualTo(new DeliveryAttempt("acme", "evt_1", 42, 3, 2, java.time.Instant.ofEpochMilli(
                1_700_000_000_000L), AttemptOutcome.RETRY, OptionalInt.of(503), Duration.ofNanos(1_500_000),
                AttemptErrorClass.HTTP_5XX, "http 503"));
        assertThat(a.outOfOrder()).isFalse();
    }

    @Test
    void aVersionTwoEntryIsTheFirstLayoutAndOneFlagsByte() {
        byte[] v2 = AttemptHistory.encode(record(true), 1);
        assertThat(v2[0]).isEqualTo((byte) 2);
        assertThat(v2[v2.length - 1]).isEqualTo((byte) 1);
        byte[] v1 = AttemptHistory.encode(record(false), 1);
        v1 = Arrays.copyOf(v1, v1.length - 1);
        v1[0] = 1;
        assertThat(AttemptHistory.decode("acme", KEY, v1).outOfOrder()).isFalse();
    }

    @Test
    void unknownFlagsAVersionOneEntryWithAFlagsByteAndUnknownVersionsAreCorruption() {
        byte[] unknownFlag = AttemptHistory.encode(record(true), 1);
        unknownFlag[unknownFlag.length - 1] = 3;
        assertThatThrownBy(() -> AttemptHistory.decode("acme", KEY, unknownFlag))
                .isInstanceOf(StoreCorruptionException.class).hasMessageContaining("flags");
        byte[] v1WithFlags = AttemptHistory.encode(record(true), 1);
        v1WithFlags[0] = 1;
        assertThatThrownBy(() -> AttemptHistory.decode("acme", KEY, v1WithFlags))
                .isInstanceOf(StoreCorruptionException.class);
        byte[] v3 = AttemptHistory.encode(record(false), 1);
        v3[0] = 3;
        assertThatThrownBy(() -> AttemptHistory.decode("acme", KEY, v3))
                .isInstanceOf(StoreCorruptionException.class).hasMessageContaining("version");
    }
}

package io.ankusa.queue.deliveries;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ankusa.api.AuditAction;
import io.ankusa.store.StoreCorruptionException;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The audit entry's value: version 1 without an actor (as always written), version 2 with one. */
class AuditRecordCodecTest {

    private static Map<String, Long> counts() {
        Map<String, Long> counts = new LinkedHashMap<>();
        counts.put("pending", 3L);
        counts.put("dead", 1L);
        return counts;
    }

    @Test
    void aVersionOneEntryWrittenBeforeActorsReadsWithNone() {
        // Exactly what the first release wrote: no actor after the counts.
        byte[] v1 = new Wire.Out(64).u8(1).string("purge").string("acme").u16(2).string("pending").u64(3)
                .string("dead").u64(1).toByteArray();

        AuditRecord record = AuditRecord.decode(v1);

        assertThat(record).isEqualTo(new AuditRecord(AuditAction.PURGE, "acme", counts()));
        assertThat(record.actor()).isEmpty();
        assertThat(record.counts()).containsExactly(Map.entry("pending", 3L), Map.entry("dead", 1L));
        assertThat(new AuditRecord(AuditAction.PURGE, "acme", counts()).encode())
                .as("an entry without an actor is still written as version 1, byte for byte").isEqualTo(v1);
    }

    @Test
    void anEntryWithAnActorIsVersionTwoAndRoundTrips() {
        AuditRecord record = new AuditRecord(AuditAction.ERASE, "acme", counts(), Optional.of("cli:ann"));
        byte[] v2 = record.encode();

        assertThat(v2[0]).isEqualTo((byte) AuditRecord.VERSION_WITH_ACTOR);
        assertThat(AuditRecord.decode(v2)).isEqualTo(record);
        assertThat(AuditRecord.decode(v2).actor()).hasValue("cli:ann");
        byte[] v1 = new AuditRecord(AuditAction.ERASE, "acme", counts()).encode();
        assertThat(Arrays.copyOfRange(v2, 1, v1.length)).as("version 1's fields, then the actor")
                .isEqualTo(Arrays.copyOfRange(v1, 1, v1.length));
    }

    @Test
    void aVersionTwoWithoutItsActorABadActorAndUnknownVersionsAreCorruption() {
        byte[] noActor = new AuditRecord(AuditAction.ERASE, "acme", counts()).encode();
        noActor[0] = 2;
        assertThatThrownBy(() -> AuditRecord.decode(noActor)).isInstanceOf(StoreCorruptionException.class);
        byte[] blank = new Wire.Out(64).u8(2).string("erase").string("acme").u16(0).string(" ").toByteArray();
        assertThatThrownBy(() -> AuditRecord.decode(blank)).isInstanceOf(StoreCorruptionException.class)
                .hasMessageContaining("actor");
        byte[] v1WithActor = new AuditRecord(AuditAction.ERASE, "acme", counts(), Optional.of("ann")).encode();
        v1WithActor[0] = 1;
        assertThatThrownBy(() -> AuditRecord.decode(v1WithActor)).isInstanceOf(StoreCorruptionException.class)
                .hasMessageContaining("trailing");
        byte[] v3 = new AuditRecord(AuditAction.ERASE, "acme", counts()).encode();
        v3[0] = 3;
        assertThatThrownBy(() -> AuditRecord.decode(v3)).isInstanceOf(StoreCorruptionException.class)
                .hasMessageContaining("version 3");
    }
}

package io.ankusa.keys;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The dedupe ({@code ?u}, {@code ?e}) and audit keys: round trips, order, sentinels, garbage. */
class OperatorKeysTest {

    @Test
    void dedupeKeysRoundTripWithAnyKeyText() {
        for (String key : List.of("k", "order-17", "ключ", "a\0b", "x".repeat(255))) {
            DedupeKey entry = new DedupeKey("ácme", key);
            assertThat(DedupeKey.decode(entry.encode())).isEqualTo(entry);
            DedupeExpiryKey expiry = DedupeExpiryKey.of(1_767_225_600_000L, entry);
            assertThat(DedupeExpiryKey.decode(expiry.encode())).isEqualTo(expiry);
            assertThat(expiry.dedupeKey()).isEqualTo(entry);
        }
        assertThat(DedupeKey.decodeValue(DedupeKey.value(42, Long.MAX_VALUE, "hook-ü")))
                .isEqualTo(new DedupeKey.Value(42, Long.MAX_VALUE, "hook-ü"));
    }

    @Test
    void aTenantsDedupeEntriesAreOnePrefixRange() {
        KeySpan acme = DedupeKey.tenantRange("acme");
        assertThat(acme.contains(new DedupeKey("acme", "k").encode())).isTrue();
        assertThat(acme.contains(new DedupeKey("acme2", "k").encode())).isFalse();
        assertThat(acme.contains(new DedupeKey("acm", "ek").encode())).isFalse();
    }

    @Test
    void expiryKeysSortByTimeAndExpiredByStopsAtNow() {
        Random random = new Random(3);
        List<DedupeExpiryKey> keys = new java.util.ArrayList<>();
        for (int i = 0; i < 200; i++) {
            keys.add(new DedupeExpiryKey(random.nextLong(0, 1L << 50), "t" + random.nextInt(300), "k" + i));
        }
        List<DedupeExpiryKey> byBytes = keys.stream().sorted((a, b) -> Arrays.compareUnsigned(a.encode(), b.encode())).toList();
        assertThat(byBytes).isSortedAccordingTo(Comparator.comparingLong(DedupeExpiryKey::at));
        KeySpan expired = DedupeExpiryKey.expiredBy(1000);
        assertThat(expired.contains(new DedupeExpiryKey(1000, "t", "k").encode())).isTrue();
        assertThat(expired.contains(new DedupeExpiryKey(0, "t", "k").encode())).isTrue();
        assertThat(expired.contains(new DedupeExpiryKey(1001, "t", "k").encode())).isFalse();
        assertThat(expired.contains(DedupeExpiryKey.FAMILY.lo())).isFalse();
    }

    @Test
    void auditKeysRoundTripAndSortBySeq() {
        AuditKey key = new AuditKey(7, 1_767_225_600_000L);
        assertThat(AuditKey.decode(key.encode())).isEqualTo(key);
        assertThat(Arrays.compareUnsigned(new AuditKey(255, 9).encode(), new AuditKey(256, 1).encode())).isNegative();
        assertThat(AuditKey.before(8).contains(key.encode())).isTrue();
        assertThat(AuditKey.before(7).contains(key.encode())).isFalse();
        assertThat(KeyFamilies.AUDIT).isSameAs(AuditKey.FAMILY);
    }

    @Test
    void realKeysSortStrictlyBetweenTheSentinels() {
        between(DedupeKey.FAMILY, new DedupeKey("\u0001", "\u0000").encode(), new DedupeKey("\uFFFF".repeat(85), "\uFFFF").encode());
        between(DedupeExpiryKey.FAMILY, new DedupeExpiryKey(0, "\u0001", "k").encode(),
                new DedupeExpiryKey(Long.MAX_VALUE, "\uFFFF", "\uFFFF").encode());
        between(AuditKey.FAMILY, new AuditKey(1, 0).encode(), new AuditKey(Long.MAX_VALUE, Long.MAX_VALUE).encode());
        assertThat(KeyFamilies.ALL).contains(DedupeKey.FAMILY, DedupeExpiryKey.FAMILY, AuditKey.FAMILY);
    }

    @Test
    void decodersRefuseGarbageAndBadFields() {
        for (byte[] junk : List.of(new byte[0], DedupeKey.FAMILY.lo(), DedupeKey.FAMILY.hi(), new byte[] {'u', 'a', 'b', 'c'},
                new byte[] {'u', 0, 'a', 'b'}, new byte[] {'x', 'a', 0, 'b'})) {
            assertThatThrownBy(() -> DedupeKey.decode(junk)).isInstanceOf(KeyFormatException.class);
        }
        for (byte[] junk : List.of(DedupeExpiryKey.FAMILY.lo(), DedupeExpiryKey.FAMILY.hi(), new byte[11])) {
            assertThatThrownBy(() -> DedupeExpiryKey.decode(junk)).isInstanceOf(KeyFormatException.class);
        }
        for (byte[] junk : List.of(AuditKey.FAMILY.lo(), AuditKey.FAMILY.hi(), new byte[17], new byte[16])) {
            assertThatThrownBy(() -> AuditKey.decode(junk)).isInstanceOf(KeyFormatException.class);
        }
        for (byte[] junk : List.of(new byte[19], new byte[] {0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 5})) {
            assertThatThrownBy(() -> DedupeKey.decodeValue(junk)).isInstanceOf(KeyFormatException.class);
        }
        assertThatThrownBy(() -> new DedupeKey("acme", "")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new DedupeKey("acme", "x".repeat(256))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new DedupeKey("a\0", "k")).isInstanceOf(IllegalArgumentException.class);
    }

    private static void between(KeyFamily family, byte[] smallest, byte[] largest) {
        assertThat(Arrays.compareUnsigned(family.lo(), smallest)).as(family.name() + " lo").isNegative();
        assertThat(Arrays.compareUnsigned(largest, family.hi())).as(family.name() + " hi").isNegative();
    }
}

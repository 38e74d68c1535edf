package io.ankusa.keys;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class KeyRoundTripTest {

    private final Random random = new Random(42);

    @Test
    void everyKeyDecodesToWhatEncodedIt() {
        for (int i = 0; i < 500; i++) {
            long ord = 1 + (random.nextLong() & Long.MAX_VALUE) % Ordinals.MAX;
            long at = random.nextLong() & Long.MAX_VALUE;
            long seq = random.nextLong() & Long.MAX_VALUE;
            int sink = random.nextInt(65536);
            DueKey due = new DueKey(ord, at, seq, sink);
            assertThat(DueKey.decode(due.encode())).isEqualTo(due);
            InflightKey inflight = new InflightKey(ord, seq, sink);
            assertThat(InflightKey.decode(inflight.encode())).isEqualTo(inflight);
            DeadKey dead = new DeadKey(at, seq, sink);
            assertThat(DeadKey.decode(dead.encode())).isEqualTo(dead);
            DeadByTenantKey byTenant = new DeadByTenantKey(ord, at, seq, sink);
            assertThat(DeadByTenantKey.decode(byTenant.encode())).isEqualTo(byTenant);
            assertThat(byTenant.deadKey()).isEqualTo(dead);
            ActiveKey active = ActiveKey.forDue(ord, at);
            assertThat(ActiveKey.decode(active.encode())).isEqualTo(active);
            assertThat(active.bucket()).isEqualTo(at / 1000);
            assertThat(ArchiveKey.decode(new ArchiveKey(seq).encode())).isEqualTo(new ArchiveKey(seq));
            assertThat(ClearedKey.decode(new ClearedKey(seq).encode())).isEqualTo(new ClearedKey(seq));
            assertThat(TenantByOrdKey.decode(new TenantByOrdKey(ord).encode())).isEqualTo(new TenantByOrdKey(ord));
            assertThat(CounterKey.decode(new CounterKey(ord, 1 + random.nextInt(6)).encode()).ord()).isEqualTo(ord);
            assertThat(HookKey.decode(new HookKey(Math.max(1, seq)).encode())).isEqualTo(new HookKey(Math.max(1, seq)));
            assertThat(DeliveryKey.decode(new DeliveryKey(Math.max(1, seq), sink).encode()))
                    .isEqualTo(new DeliveryKey(Math.max(1, seq), sink));
        }
    }

    @Test
    void valuesRoundTrip() {
        assertThat(DueKey.decodeValue(DueKey.value(4_000_000_000L, DueKey.KIND_RETRY)))
                .isEqualTo(new DueKey.Value(4_000_000_000L, 1));
        assertThat(InflightKey.decodeValue(InflightKey.value(77))).isEqualTo(77);
        assertThat(ArchiveKey.decodeValue(ArchiveKey.value(12, Ordinals.MAX))).isEqualTo(new ArchiveKey.Value(12, Ordinals.MAX));
        assertThat(DeadKey.decodeValue(DeadKey.value(9, "src-ü", ""))).isEqualTo(new DeadKey.Value(9, "src-ü", ""));
        assertThat(OrdByTenantKey.decodeValue(OrdByTenantKey.value(5))).isEqualTo(5);
        assertThat(TenantByOrdKey.decodeValue(TenantByOrdKey.value("ácme"))).isEqualTo("ácme");
        assertThat(OrdByTenantKey.decode(new OrdByTenantKey("ácme").encode()).tenant()).isEqualTo("ácme");
        assertThat(MetaKeys.decodeU32("m:next_ord", MetaKeys.u32Value(4_294_967_295L))).isEqualTo(4_294_967_295L);
        assertThat(MetaKeys.decodeU64("m:last_seq", MetaKeys.u64Value(Long.MAX_VALUE))).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void keysSortInNumericOrderAsUnsignedBytes() {
        // Values straddling byte boundaries, where signed comparison would invert the order.
        long[] ords = {1, 127, 128, 255, 256, 0x7FFF_FFFFL, 0x8000_0000L, Ordinals.MAX};
        long[] ats = {0, 1, 127, 128, 255, 256, 0x7FFF_FFFF_FFFF_FFFEL};
        List<DueKey> keys = new java.util.ArrayList<>();
        for (long ord : ords) {
            for (long at : ats) {
                keys.add(new DueKey(ord, at, at == 0 ? 0 : 200, 200));
                keys.add(new DueKey(ord, at, 201, 0));
            }
        }
        List<DueKey> byBytes = keys.stream().sorted((a, b) -> Arrays.compareUnsigned(a.encode(), b.encode())).toList();
        List<DueKey> byNumbers = keys.stream().sorted(java.util.Comparator.comparingLong(DueKey::ord)
                .thenComparingLong(DueKey::at).thenComparingLong(DueKey::seq).thenComparingInt(DueKey::sink)).toList();
        assertThat(byBytes).isEqualTo(byNumbers);

        List<ActiveKey> markers = new java.util.ArrayList<>();
        for (long ord : ords) {
            for (long at : ats) {
                markers.add(ActiveKey.forDue(ord, at));
            }
        }
        List<ActiveKey> markersByBytes = markers.stream().sorted((a, b) -> Arrays.compareUnsigned(a.encode(), b.encode())).toList();
        assertThat(markersByBytes).isSortedAccordingTo(java.util.Comparator.comparingLong(ActiveKey::bucket)
                .thenComparingLong(ActiveKey::ord));
    }

    @Test
    void everyRealKeySortsStrictlyBetweenItsFamilysSentinels() {
        assertBetween(DueKey.FAMILY, new DueKey(1, 0, 0, 0).encode(), new DueKey(Ordinals.MAX, Long.MAX_VALUE, Long.MAX_VALUE, 65535).encode());
        assertBetween(InflightKey.FAMILY, new InflightKey(1, 0, 0).encode(), new InflightKey(Ordinals.MAX, Long.MAX_VALUE, 65535).encode());
        assertBetween(DeadKey.FAMILY, new DeadKey(0, 1, 0).encode(), new DeadKey(Long.MAX_VALUE, Long.MAX_VALUE, 65535).encode());
        assertBetween(DeadByTenantKey.FAMILY, new DeadByTenantKey(1, 0, 0, 0).encode(),
                new DeadByTenantKey(Ordinals.MAX, Long.MAX_VALUE, Long.MAX_VALUE, 65535).encode());
        assertBetween(ActiveKey.FAMILY, new ActiveKey(0, 1).encode(), new ActiveKey(Long.MAX_VALUE / 1000, Ordinals.MAX).encode());
        assertBetween(ArchiveKey.FAMILY, new ArchiveKey(1).encode(), new ArchiveKey(Long.MAX_VALUE).encode());
        assertBetween(TenantByOrdKey.FAMILY, new TenantByOrdKey(1).encode(), new TenantByOrdKey(Ordinals.MAX).encode());
        assertBetween(OrdByTenantKey.FAMILY, new OrdByTenantKey("\u0001").encode(), new OrdByTenantKey("\uFFFF".repeat(85)).encode());
        assertBetween(CounterKey.FAMILY, new CounterKey(0, 1).encode(), new CounterKey(Ordinals.MAX, 6).encode());
        assertBetween(HookKey.FAMILY, new HookKey(1).encode(), new HookKey(Long.MAX_VALUE).encode());
        assertBetween(MetaKeys.FAMILY, MetaKeys.FORMAT, MetaKeys.migrating(3));
        assertThat(CounterKey.FAMILY.lo()).containsExactly(0, 0, 0, 0, 0);
        assertThat(CounterKey.FAMILY.hi()).containsExactly(0xFF, 0xFF, 0xFF, 0xFF, 0xFF);
        assertThat(OrdByTenantKey.FAMILY.hi()).containsExactly('n', 0xFF);
    }

    @Test
    void tenantRangesHoldExactlyThatTenantsKeys() {
        KeySpan range = DueKey.tenantRange(7);
        assertThat(range.contains(new DueKey(7, 0, 0, 0).encode())).isTrue();
        assertThat(range.contains(new DueKey(7, Long.MAX_VALUE, Long.MAX_VALUE, 65535).encode())).isTrue();
        assertThat(range.contains(new DueKey(6, Long.MAX_VALUE, 1, 1).encode())).isFalse();
        assertThat(range.contains(new DueKey(8, 0, 0, 0).encode())).isFalse();
        KeySpan window = DueKey.tenantRange(7, 1000, 1999);
        assertThat(window.contains(new DueKey(7, 999, 5, 5).encode())).isFalse();
        assertThat(window.contains(new DueKey(7, 1000, 0, 0).encode())).isTrue();
        assertThat(window.contains(new DueKey(7, 1999, Long.MAX_VALUE, 65535).encode())).isTrue();
        assertThat(window.contains(new DueKey(7, 2000, 0, 0).encode())).isFalse();
        KeySpan active = ActiveKey.upTo(5);
        assertThat(active.contains(ActiveKey.FAMILY.lo())).isFalse();
        assertThat(active.contains(new ActiveKey(5, Ordinals.MAX).encode())).isTrue();
        assertThat(active.contains(new ActiveKey(6, 1).encode())).isFalse();
        assertThat(DeadByTenantKey.tenantRange(3).contains(new DeadByTenantKey(3, 9, 9, 9).encode())).isTrue();
        assertThat(InflightKey.tenantRange(3).contains(new InflightKey(4, 9, 9).encode())).isFalse();
        assertThat(DeliveryKey.hookRange(5).contains(new DeliveryKey(5, 65535).encode())).isTrue();
        assertThat(DeliveryKey.hookRange(5).contains(new DeliveryKey(6, 0).encode())).isFalse();
    }

    @Test
    void aTenantIdPrefixSpansExactlyTheIdsThatStartWithItAndASuccessorIsTheNextKey() {
        KeySpan acme = OrdByTenantKey.startingWith("acme");
        for (String id : List.of("acme", "acme-eu", "acmex", "acme\uFFFF")) {
            assertThat(acme.contains(new OrdByTenantKey(id).encode())).as(id).isTrue();
        }
        for (String id : List.of("acm", "acmd\uFFFF", "acmf", "b", "\u0001")) {
            assertThat(acme.contains(new OrdByTenantKey(id).encode())).as(id).isFalse();
        }
        KeySpan every = OrdByTenantKey.startingWith("");
        assertThat(every.contains(OrdByTenantKey.FAMILY.lo())).isFalse();
        assertThat(every.contains(OrdByTenantKey.FAMILY.hi())).isFalse();
        assertThat(every.contains(new OrdByTenantKey("\u0001").encode())).isTrue();
        assertThat(every.contains(new OrdByTenantKey("\uFFFF".repeat(85)).encode())).isTrue();
        assertThat(every.contains(new TenantByOrdKey(1).encode())).as("not the other tenant index").isFalse();
        byte[] after = new OrdByTenantKey("acme").successor();
        assertThat(Arrays.compareUnsigned(after, new OrdByTenantKey("acme").encode())).isPositive();
        assertThat(Arrays.compareUnsigned(after, new OrdByTenantKey("acme\u0001").encode())).as("no id holds NUL")
                .isNegative();
    }

    private static void assertBetween(KeyFamily family, byte[] smallest, byte[] largest) {
        assertThat(Arrays.compareUnsigned(family.lo(), smallest)).as(family.name() + " lo").isNegative();
        assertThat(Arrays.compareUnsigned(largest, family.hi())).as(family.name() + " hi").isNegative();
        assertThat(family.isSentinel(family.lo())).isTrue();
        assertThat(family.isSentinel(smallest)).isFalse();
    }
}

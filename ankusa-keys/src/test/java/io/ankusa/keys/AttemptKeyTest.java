package io.ankusa.keys;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The attempt history's keys: round trips, newest-first order, ranges and sentinels. */
class AttemptKeyTest {

    private final Random random = new Random(42);

    @Test
    void everyKeyDecodesToWhatEncodedIt() {
        for (int i = 0; i < 500; i++) {
            long ord = 1 + (random.nextLong() & Long.MAX_VALUE) % Ordinals.MAX;
            AttemptKey key = new AttemptKey(ord, random.nextLong() & Long.MAX_VALUE, random.nextLong() & Long.MAX_VALUE,
                    random.nextInt(65536), random.nextInt(Integer.MAX_VALUE));
            byte[] id = ("msg_" + i).getBytes(StandardCharsets.US_ASCII);
            assertThat(AttemptKey.decodeByTenant(key.encodeByTenant())).isEqualTo(key);
            assertThat(AttemptKey.decodeByHook(key.encodeByHook(id))).isEqualTo(key);
            assertThat(AttemptKey.ofSlotValue(ord, key.seq(), key.sink(), key.slotValue())).isEqualTo(key);
            for (byte[] k : List.of(key.encodeByTenant(), key.encodeByHook(id), AttemptKey.slotKey(ord, key.seq(), key.sink(), 7))) {
                assertThat(AttemptKey.ordOf(k)).isEqualTo(ord);
                assertThat(AttemptKey.tenantAll(ord).contains(k)).isTrue();
                assertThat(Arrays.compareUnsigned(k, AttemptKey.FAMILY.lo())).isPositive();
                assertThat(Arrays.compareUnsigned(k, AttemptKey.FAMILY.hi())).isNegative();
            }
            assertThat(AttemptKey.tenantRange(ord).contains(key.encodeByTenant())).isTrue();
            assertThat(AttemptKey.hookRange(ord, id).contains(key.encodeByHook(id))).isTrue();
            assertThat(AttemptKey.hookRange(ord, id).contains(key.encodeByHook((new String(id, StandardCharsets.US_ASCII) + "x")
                    .getBytes(StandardCharsets.US_ASCII)))).as("an id that only starts the same").isFalse();
        }
    }

    @Test
    void keysSortNewestFirst() {
        List<byte[]> keys = new ArrayList<>();
        for (long at : new long[] {5_000, 1_000, 3_000}) {
            keys.add(new AttemptKey(3, at, 9, 0, 1).encodeByTenant());
        }
        keys.sort(Arrays::compareUnsigned);
        assertThat(keys).extracting(k -> AttemptKey.decodeByTenant(k).at()).containsExactly(5_000L, 3_000L, 1_000L);
    }

    @Test
    void otherBytesAreRefused() {
        assertThatThrownBy(() -> AttemptKey.decodeByTenant(AttemptKey.FAMILY.lo())).isInstanceOf(KeyFormatException.class);
        assertThatThrownBy(() -> AttemptKey.ordOf(AttemptKey.FAMILY.hi())).isInstanceOf(KeyFormatException.class);
        byte[] byHook = new AttemptKey(3, 1, 2, 3, 4).encodeByHook(new byte[] {'a', 'b'});
        assertThatThrownBy(() -> AttemptKey.decodeByHook(Arrays.copyOf(byHook, byHook.length - 1)))
                .isInstanceOf(KeyFormatException.class);
        assertThatThrownBy(() -> AttemptKey.ofSlotValue(3, 2, 3, new byte[11])).isInstanceOf(KeyFormatException.class);
        assertThat(AttemptKey.fitsHookKey(new byte[256])).isFalse();
    }
}

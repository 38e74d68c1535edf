package io.ankusa.keys;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Random;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

class GarbageInputTest {

    @Test
    void decodersRefuseWrongLengthWrongPrefixAndSentinels() {
        refuses("due", DueKey::decode, new byte[0], new byte[22], new DueKey(1, 1, 1, 1).encode()[0] == 'D'
                ? withPrefix(new DueKey(1, 1, 1, 1).encode(), 'F') : null, DueKey.FAMILY.lo(), DueKey.FAMILY.hi());
        refuses("inflight", InflightKey::decode, new byte[15], InflightKey.FAMILY.hi(), new byte[] {'F'});
        refuses("dead", DeadKey::decode, new byte[19], DeadKey.FAMILY.lo());
        refuses("dead_by_tenant", DeadByTenantKey::decode, new byte[23], DeadByTenantKey.FAMILY.hi());
        refuses("active", ActiveKey::decode, new byte[13], ActiveKey.FAMILY.lo(), new byte[] {'A', 0, 0});
        refuses("archive", ArchiveKey::decode, new byte[9], ArchiveKey.FAMILY.hi());
        refuses("counters", CounterKey::decode, CounterKey.FAMILY.lo(), new byte[] {0, 0, 0, 1, 9}, new byte[4]);
        refuses("tenant_ords", OrdByTenantKey::decode, OrdByTenantKey.FAMILY.hi(), new byte[] {'n'},
                new byte[] {'n', 'a', 0, 'b'});
        refuses("hooks", HookKey::decode, HookKey.FAMILY.hi(), HookKey.FAMILY.lo(), new byte[7]);
    }

    @Test
    void ordinalZeroAndAllOnesAreNotTenants() {
        byte[] zeroOrd = new DueKey(1, 5, 5, 5).encode();
        zeroOrd[4] = 0;
        assertThatThrownBy(() -> DueKey.decode(zeroOrd)).isInstanceOf(KeyFormatException.class).hasMessageContaining("ord");
        assertThatThrownBy(() -> new DueKey(0xFFFF_FFFFL, 1, 1, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new CounterKey(1, 0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void valueDecodersRefuseGarbage() {
        refuses("due value", DueKey::decodeValue, new byte[4], new byte[] {0, 0, 0, 1, 2});
        refuses("dead value", DeadKey::decodeValue, new byte[3], new byte[] {0, 0, 0, 1, 0, 0, 0, 9, 0, 0, 0, 0},
                new byte[] {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0});
        refuses("archive value", ArchiveKey::decodeValue, new byte[7], new byte[8]);
        refuses("tenant_ords value", OrdByTenantKey::decodeValue, new byte[3], new byte[4]);
        Random random = new Random(7);
        for (int i = 0; i < 2000; i++) {
            byte[] junk = new byte[random.nextInt(40)];
            random.nextBytes(junk);
            try {
                DeadKey.decodeValue(junk);
            } catch (KeyFormatException expected) {
                // fine: garbage may be refused, but never with another exception
            }
        }
    }

    private static byte[] withPrefix(byte[] key, char prefix) {
        key[0] = (byte) prefix;
        return key;
    }

    private static void refuses(String family, Consumer<byte[]> decoder, byte[]... inputs) {
        for (byte[] input : inputs) {
            if (input == null) {
                continue;
            }
            assertThatThrownBy(() -> decoder.accept(input))
                    .isInstanceOf(KeyFormatException.class)
                    .hasMessageStartingWith(family + ": expected")
                    .satisfies(e -> org.assertj.core.api.Assertions.assertThat(((KeyFormatException) e).family()).isEqualTo(family));
        }
    }
}

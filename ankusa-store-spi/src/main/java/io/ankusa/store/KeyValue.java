package io.ankusa.store;

import java.util.Arrays;
import java.util.Objects;

/**
 * One entry returned by a scan. The arrays belong to the caller.
 *
 * @param key   the key
 * @param value the value (for a counter family: the 8-byte little-endian sum)
 */
public record KeyValue(byte[] key, byte[] value) {

    /**
     * Checks both arrays are present.
     *
     * @param key the key
     * @param value the value (for a counter family: the 8-byte little-endian sum)
     */
    public KeyValue {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(value, "value");
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof KeyValue kv && Arrays.equals(key, kv.key) && Arrays.equals(value, kv.value);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(key) + Arrays.hashCode(value);
    }

    @Override
    public String toString() {
        return "KeyValue[" + Bytes.hex(key) + " -> " + Bytes.hex(value) + "]";
    }
}

package io.ankusa.store.spi;

import io.ankusa.store.StoreError;
import io.ankusa.store.StoreException;
import io.ankusa.store.StoreOptions;
import java.util.Collection;
import java.util.Map;
import java.util.TreeSet;

/**
 * Reads a backend's entries of {@link StoreOptions#settings()}: unknown keys and malformed or
 * out-of-range values are refused with {@link StoreError#INVALID_ARGUMENT}, naming the key.
 */
public final class BackendSettings {

    private BackendSettings() {
    }

    /**
     * Refuses any key of {@code settings} that is not in {@code known}.
     *
     * @param settings the settings given
     * @param known the keys the backend reads
     * @param backend the backend's name, for the message
     */
    public static void requireKnown(Map<String, String> settings, Collection<String> known, String backend) {
        for (String key : new TreeSet<>(settings.keySet())) {
            if (!known.contains(key)) {
                throw new StoreException(StoreError.INVALID_ARGUMENT, "unknown setting '" + key + "' for the "
                        + backend + " backend; known settings: " + new TreeSet<>(known));
            }
        }
    }

    /**
     * The whole number at {@code key}, or {@code fallback} when absent; refused outside {@code [min, max]}.
     *
     * @param settings the settings given
     * @param key the setting to read
     * @param fallback the value when the key is absent
     * @param min the smallest value allowed
     * @param max the largest value allowed
     * @return the value
     */
    public static long number(Map<String, String> settings, String key, long fallback, long min, long max) {
        String text = settings.get(key);
        if (text == null) {
            return fallback;
        }
        long value;
        try {
            value = Long.parseLong(text.trim());
        } catch (NumberFormatException e) {
            throw new StoreException(StoreError.INVALID_ARGUMENT,
                    "setting " + key + " must be a whole number, was '" + text + "'", e);
        }
        if (value < min || value > max) {
            throw new StoreException(StoreError.INVALID_ARGUMENT,
                    "setting " + key + " must be between " + min + " and " + max + ", was " + value);
        }
        return value;
    }
}

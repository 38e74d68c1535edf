package io.ankusa.store;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What to open.
 *
 * @param directory       the store's directory
 * @param families        every family the store holds; opening creates missing ones and refuses a
 *                        store that holds a family not listed here, or one of another kind
 * @param createIfMissing create the store when the directory holds none
 * @param settings        backend-specific settings (for example {@code lmdb.mapSize}); unknown keys are refused
 */
public record StoreOptions(Path directory, List<FamilySpec> families, boolean createIfMissing,
        Map<String, String> settings) {

    /**
     * Validates and copies.
     *
     * @param directory the store's directory
     * @param families every family the store holds; opening creates missing ones and refuses a store that holds a
     *     family not listed here, or one of another kind
     * @param createIfMissing create the store when the directory holds none
     * @param settings backend-specific settings (for example {@code lmdb.mapSize}); unknown keys are refused
     */
    public StoreOptions {
        Objects.requireNonNull(directory, "directory");
        families = List.copyOf(families);
        settings = Map.copyOf(settings);
        if (families.isEmpty()) {
            throw new IllegalArgumentException("at least one family must be declared");
        }
        if (families.stream().map(FamilySpec::name).distinct().count() != families.size()) {
            throw new IllegalArgumentException("family names must be unique: " + families);
        }
    }

    /**
     * Open or create {@code directory} with these families and no backend settings.
     *
     * @param directory the store's directory
     * @param families every family the store holds
     * @return the options
     */
    public static StoreOptions create(Path directory, List<FamilySpec> families) {
        return new StoreOptions(directory, families, true, Map.of());
    }

    /**
     * Open an existing store only.
     *
     * @param directory the store's directory
     * @param families every family the store holds
     * @return the options; opening them fails when no store is there
     */
    public static StoreOptions existing(Path directory, List<FamilySpec> families) {
        return new StoreOptions(directory, families, false, Map.of());
    }

    /**
     * A copy with one more backend setting.
     *
     * @param key the setting's name, such as {@code lmdb.mapSize}
     * @param value its value
     * @return new options; these are unchanged
     */
    public StoreOptions with(String key, String value) {
        var copy = new HashMap<>(settings);
        copy.put(key, value);
        return new StoreOptions(directory, families, createIfMissing, copy);
    }
}

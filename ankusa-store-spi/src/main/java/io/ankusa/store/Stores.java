package io.ankusa.store;

import io.ankusa.store.spi.StoreProvider;
import java.util.List;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.stream.Collectors;

/** Finds store backends with {@link ServiceLoader} and opens stores by backend name. */
public final class Stores {

    private Stores() {
    }

    /** {@return every backend on the module path or class path, sorted by name} */
    public static List<StoreProvider> providers() {
        return ServiceLoader.load(StoreProvider.class, Stores.class.getClassLoader()).stream()
                .map(ServiceLoader.Provider::get)
                .sorted((a, b) -> a.name().compareTo(b.name()))
                .toList();
    }

    /**
     * The backend called {@code name}, if present.
     *
     * @param name the backend's name
     * @return its provider, or empty when none of that name is present
     */
    public static Optional<StoreProvider> provider(String name) {
        return providers().stream().filter(p -> p.name().equals(name)).findFirst();
    }

    /**
     * Opens a store with the named backend.
     *
     * @param backend the backend's name
     * @param options the directory, families and settings
     * @return the open store
     * @throws IllegalArgumentException when no backend of that name is present
     */
    public static Store open(String backend, StoreOptions options) {
        return provider(backend).orElseThrow(() -> new IllegalArgumentException(
                "no store backend named '" + backend + "'; present: "
                        + providers().stream().map(StoreProvider::name).collect(Collectors.joining(", "))))
                .open(options);
    }
}

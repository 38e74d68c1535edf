package io.ankusa.dispatch.http;

/** The version this code ships as, for the {@code User-Agent}. */
final class ModuleVersion {

    /** What the version reads when neither the module nor the jar says. */
    static final String UNKNOWN = "0.1.0-SNAPSHOT";

    private ModuleVersion() {
    }

    /** The version of {@code type}'s module, else of its jar's manifest, else {@link #UNKNOWN}. */
    static String of(Class<?> type) {
        var descriptor = type.getModule().getDescriptor();
        if (descriptor != null && descriptor.rawVersion().isPresent()) {
            return descriptor.rawVersion().get();
        }
        String implementation = type.getPackage().getImplementationVersion();
        return implementation != null ? implementation : UNKNOWN;
    }
}

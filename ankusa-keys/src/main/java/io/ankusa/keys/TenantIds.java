package io.ankusa.keys;

import java.nio.charset.StandardCharsets;
import java.util.Optional;

/** What a tenant id may be: 1 to 255 UTF-8 bytes, no NUL. The rule lives here because keys embed it. */
public final class TenantIds {

    /** The tenant of a hook without a tenant id. */
    public static final String DEFAULT = "default";

    /** Longest tenant id in UTF-8 bytes. */
    public static final int MAX_BYTES = 255;

    private TenantIds() {
    }

    /** Why {@code tenant} is not a valid tenant id, or empty when it is. */
    public static Optional<String> problem(String tenant) {
        if (tenant.isEmpty()) {
            return Optional.of("tenant id is empty");
        }
        if (tenant.indexOf('\0') >= 0) {
            return Optional.of("tenant id contains NUL");
        }
        int bytes = tenant.getBytes(StandardCharsets.UTF_8).length;
        if (bytes > MAX_BYTES) {
            return Optional.of("tenant id is " + bytes + " UTF-8 bytes, more than " + MAX_BYTES);
        }
        return Optional.empty();
    }
}

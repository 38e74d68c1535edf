package io.ankusa.keys;

import java.nio.charset.StandardCharsets;
import java.util.Optional;

/** What a tenant id may be: valid UTF-16, 1 to 255 UTF-8 bytes, no NUL. The rule lives here because keys embed it. */
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
        for (int i = 0; i < tenant.length(); i++) {
            char c = tenant.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < tenant.length()
                    && Character.isLowSurrogate(tenant.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                // Encoded leniently it would be '?': another tenant's id.
                return Optional.of("tenant id is not valid UTF-16 (unpaired surrogate at index " + i + ")");
            }
        }
        int bytes = tenant.getBytes(StandardCharsets.UTF_8).length;
        if (bytes > MAX_BYTES) {
            return Optional.of("tenant id is " + bytes + " UTF-8 bytes, more than " + MAX_BYTES);
        }
        return Optional.empty();
    }
}

package io.ankusa.api;

/** Why an endpoint was disabled. {@link #code()} is what audit entries, events and the CLI show. */
public enum EndpointDisableReason {
    /** The endpoint answered {@code 410 Gone}. */
    GONE("gone"),
    /** The endpoint failed continuously for {@code endpoint.disable-after} (default 5 days). */
    FAILING("failing"),
    /** An operator disabled it. */
    OPERATOR("operator");

    private final String code;

    EndpointDisableReason(String code) {
        this.code = code;
    }

    /**
     * Stable machine-readable code, such as {@code "gone"}.
     *
     * @return the code
     */
    public String code() {
        return code;
    }
}

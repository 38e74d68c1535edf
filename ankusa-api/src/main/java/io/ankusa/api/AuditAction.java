package io.ankusa.api;

/** What an audit entry records. {@link #code()} is what the store holds. */
public enum AuditAction {
    /** A tenant's due or dead deliveries were purged. */
    PURGE("purge"),
    /** Dead letters were revived (replayed). */
    REPLAY("replay"),
    /** A tenant was erased (every row, hook, key and counter; the counts, never the data). */
    ERASE("erase"),
    /** A tenant's quarantined deliveries were released back to due (the operator restored their hooks). */
    QUARANTINE_RELEASE("quarantine-release"),
    /** A tenant's quarantined deliveries were purged (an operator's explicit decision). */
    QUARANTINE_PURGE("quarantine-purge"),
    /**
     * An endpoint was disabled: counts {@code sink} and one of {@code gone}, {@code failing},
     * {@code operator} (= 1) saying why.
     */
    ENDPOINT_DISABLE("endpoint-disable"),
    /** An operator enabled an endpoint again: counts {@code sink}. */
    ENDPOINT_ENABLE("endpoint-enable"),
    /** An endpoint was registered: counts {@code sink}. */
    ENDPOINT_REGISTER("endpoint-register"),
    /** A registered endpoint's URL, filter, limits, headers or metadata changed: counts {@code sink}. */
    ENDPOINT_UPDATE("endpoint-update"),
    /** A registered endpoint's secret was rotated: counts {@code sink} and {@code overlap_ms}. */
    ENDPOINT_ROTATE("endpoint-rotate"),
    /** A registered endpoint was removed: counts {@code sink}. */
    ENDPOINT_REMOVE("endpoint-remove");

    private final String code;

    AuditAction(String code) {
        this.code = code;
    }

    /**
     * Stable machine-readable code, such as {@code "purge"}.
     *
     * @return the code, as stored in the audit trail
     */
    public String code() {
        return code;
    }

    /**
     * The action with {@code code}.
     *
     * @param code a code returned by {@link #code()}
     * @return the action with that code
     * @throws IllegalArgumentException for an unknown code
     */
    public static AuditAction ofCode(String code) {
        for (AuditAction action : values()) {
            if (action.code.equals(code)) {
                return action;
            }
        }
        throw new IllegalArgumentException("unknown audit action '" + code + "'");
    }
}

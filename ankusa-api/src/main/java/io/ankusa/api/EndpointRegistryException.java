package io.ankusa.api;

import java.util.Objects;

/**
 * A refused change to the endpoint registry; {@link #reason()} says why and {@link #error()} is
 * its code. Nothing was written.
 */
public final class EndpointRegistryException extends AnkusaException {

    private static final long serialVersionUID = 1L;

    /** Why a registry change was refused. */
    public enum Reason {
        /** A tenant id the queue does not accept (empty, too long, a NUL or a control character). */
        INVALID_TENANT("invalid_tenant"),
        /** An endpoint id that is empty, longer than 128 bytes, or holds other than {@code [A-Za-z0-9_.:-]}. */
        INVALID_ID("invalid_id"),
        /** A URL that is not an absolute {@code http} or {@code https} URL with a host. */
        INVALID_URL("invalid_url"),
        /** A URL whose address the SSRF guard refuses (loopback, private, link-local, metadata …). */
        ADDRESS_REFUSED("address_refused"),
        /** An event type that is not a name of {@code [A-Za-z0-9_.:-]} or such a name followed by {@code .*}. */
        INVALID_EVENT_TYPE("invalid_event_type"),
        /** A negative rate or in-flight limit, or a header or metadata entry that is empty or too long. */
        INVALID_SETTING("invalid_setting"),
        /** An endpoint id the tenant has registered already. */
        DUPLICATE_ID("duplicate_id"),
        /** A tenant with no endpoint registered. */
        UNKNOWN_TENANT("unknown_tenant"),
        /** An endpoint id the tenant has not registered (or removed). */
        UNKNOWN_ENDPOINT("unknown_endpoint"),
        /** Every one of the tenant's 65 536 sink numbers has been given to an endpoint. */
        NO_SINK_LEFT("no_sink_left");

        private final String code;

        Reason(String code) {
            this.code = code;
        }

        /**
         * Stable machine-readable code, such as {@code "duplicate_id"}.
         *
         * @return the code, also the exception's {@link EndpointRegistryException#error()}
         */
        public String code() {
            return code;
        }
    }

    /** Why the change was refused. */
    private final Reason reason;

    /**
     * A refusal for {@code reason}, with details for people.
     *
     * @param reason  why the change was refused
     * @param message the details, for people (never a secret)
     */
    public EndpointRegistryException(Reason reason, String message) {
        super(reason.code(), reason.code() + ": " + message);
        this.reason = Objects.requireNonNull(reason, "reason");
    }

    /** {@return why the change was refused} */
    public Reason reason() {
        return reason;
    }
}

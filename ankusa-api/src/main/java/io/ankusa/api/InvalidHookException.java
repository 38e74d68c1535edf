package io.ankusa.api;

import java.util.Objects;

/**
 * A hook the queue refuses as input ({@link #error()} {@code "invalid_hook"}); {@link #reason()}
 * says which rule it broke. Nothing was written.
 */
public final class InvalidHookException extends AnkusaException {

    private static final long serialVersionUID = 1L;

    /** Which input rule a hook broke. */
    public enum Reason {
        /** No hook id, or an empty one. */
        MISSING_ID("missing_id"),
        /**
         * A hook id with a character other than printable ASCII, or with a space or a full stop: it
         * is sent as the Standard Webhooks {@code webhook-id} and signed as {@code id.timestamp.payload},
         * where a full stop would let another split of the same bytes verify.
         */
        INVALID_ID("invalid_id"),
        /** A hook id longer than {@value Hook#ID_MAX_BYTES} bytes. */
        ID_TOO_LONG("id_too_long"),
        /** No source id, or an empty one. */
        MISSING_SOURCE("missing_source"),
        /** A source id that is not valid UTF-16 or holds a control or format character. */
        SOURCE_INVALID("source_invalid"),
        /** A source id longer than {@value Hook#SOURCE_MAX_BYTES} UTF-8 bytes. */
        SOURCE_TOO_LONG("source_too_long"),
        /** A tenant id that is the empty string. */
        TENANT_EMPTY("tenant_empty"),
        /** A tenant id longer than 255 UTF-8 bytes. */
        TENANT_TOO_LONG("tenant_too_long"),
        /** A tenant id containing the NUL character. */
        TENANT_CONTAINS_NUL("tenant_contains_nul"),
        /** A tenant id that is not valid UTF-16 or holds a control or format character. */
        TENANT_INVALID("tenant_invalid"),
        /** An idempotency key that is the empty string. */
        IDEMPOTENCY_KEY_EMPTY("idempotency_key_empty"),
        /**
         * An idempotency key longer than 255 UTF-8 bytes, or longer than
         * {@value Hook#TENANT_AND_KEY_MAX_BYTES} UTF-8 bytes together with the tenant id.
         */
        IDEMPOTENCY_KEY_TOO_LONG("idempotency_key_too_long"),
        /** An idempotency key that is not valid UTF-16 (an unpaired surrogate). */
        IDEMPOTENCY_KEY_INVALID("idempotency_key_invalid"),
        /** An ordering key that is the empty string. */
        ORDERING_KEY_EMPTY("ordering_key_empty"),
        /** An ordering key longer than {@value Hook#ORDERING_KEY_MAX_BYTES} bytes. */
        ORDERING_KEY_TOO_LONG("ordering_key_too_long"),
        /** An ordering key with anything but printable ASCII (0x21..0x7E, so no space). */
        ORDERING_KEY_INVALID("ordering_key_invalid"),
        /** A header name that is not an RFC 9110 token (empty, or a space, a colon, a control character…). */
        HEADER_NAME_INVALID("header_name_invalid"),
        /** A header value with a character RFC 9110 does not allow in a field value (CR, LF, NUL, above U+00FF…). */
        HEADER_VALUE_INVALID("header_value_invalid"),
        /** More than {@value Hook#HEADERS_MAX} headers. */
        TOO_MANY_HEADERS("too_many_headers"),
        /** Header names and values over {@value Hook#HEADERS_MAX_BYTES} UTF-8 bytes together. */
        HEADERS_TOO_LARGE("headers_too_large"),
        /** A payload given as text that is not valid UTF-16 (an unpaired surrogate). */
        PAYLOAD_INVALID("payload_invalid"),
        /** A payload larger than the queue's configured limit. */
        PAYLOAD_TOO_LARGE("payload_too_large"),
        /** No sink to deliver to and no event type to fan out by. */
        NO_SINKS("no_sinks"),
        /** More than {@value Hook#SINKS_MAX} sinks (the stored sink count is 16 bits). */
        TOO_MANY_SINKS("too_many_sinks"),
        /** The same sink number twice. */
        DUPLICATE_SINK("duplicate_sink"),
        /** A sink number outside 0..65535. */
        SINK_OUT_OF_RANGE("sink_out_of_range"),
        /**
         * An event type that is not a dotted name of {@code [A-Za-z0-9_:-]} segments of at most
         * {@value Hook#EVENT_TYPE_MAX_BYTES} characters (a hook names one type; patterns are the
         * endpoints').
         */
        EVENT_TYPE_INVALID("event_type_invalid"),
        /** Both an event type and sinks: a hook is addressed by one or the other. */
        EVENT_TYPE_WITH_SINKS("event_type_with_sinks");

        private final String code;

        Reason(String code) {
            this.code = code;
        }

        /**
         * Stable machine-readable code, such as {@code "tenant_too_long"}.
         *
         * @return the code, also the exception's {@link InvalidHookException#error()}
         */
        public String code() {
            return code;
        }
    }

    /** Which rule the hook broke. */
    private final Reason reason;

    /**
     * A refusal for {@code reason}, with details for people.
     *
     * @param reason which rule the hook broke
     * @param message the details, for people
     */
    public InvalidHookException(Reason reason, String message) {
        super("invalid_hook", reason.code() + ": " + message);
        this.reason = Objects.requireNonNull(reason, "reason");
    }

    /** {@return which rule the hook broke} */
    public Reason reason() {
        return reason;
    }
}

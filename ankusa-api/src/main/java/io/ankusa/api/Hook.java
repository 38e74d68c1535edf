package io.ankusa.api;

import io.ankusa.api.stored.StoredHooks;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A webhook to deliver: an id, the source it came from, an optional tenant (absent means
 * {@value #DEFAULT_TENANT}), headers, a payload, an optional idempotency key, an optional ordering
 * key, and either the sinks it fans out to (u16 numbers, one delivery each) or an
 * {@linkplain Builder#eventType event type}, by which the queue fans it out at ingest to the
 * tenant's registered endpoints subscribed to that type.
 *
 * <p>Deliveries of hooks with the same tenant, sink and {@linkplain Builder#orderingKey ordering key}
 * are attempted one at a time, in ingest order.
 *
 * <p>Valid by construction: {@link Builder#build()} refuses with {@link InvalidHookException}
 * (whose {@code reason()} names the rule and the field):
 * <ul>
 * <li>a missing or empty id or source, an id with anything but printable ASCII or with a space or
 *     a full stop (the id is signed as the Standard Webhooks {@code webhook-id}), an id over
 *     {@value #ID_MAX_BYTES} bytes, a source id over {@value #SOURCE_MAX_BYTES} UTF-8 bytes;</li>
 * <li>a tenant id that is empty, longer than {@value #TENANT_MAX_BYTES} UTF-8 bytes or contains NUL;
 *     an idempotency key that is empty or longer than {@value #IDEMPOTENCY_KEY_MAX_BYTES} UTF-8
 *     bytes, or with the tenant id over {@value #TENANT_AND_KEY_MAX_BYTES} bytes together (both go
 *     into one store key, and LMDB keys hold at most 511 bytes);</li>
 * <li>any string that is not valid UTF-16 (an unpaired surrogate would encode as {@code '?'} and
 *     merge with another string), and tenant or source ids with control, format or line-separator
 *     characters (they are printed to operators' terminals);</li>
 * <li>more than {@value #HEADERS_MAX} headers, or over {@value #HEADERS_MAX_BYTES} UTF-8 bytes of
 *     names and values, a header name that is not an RFC 9110 token, a value with a character other
 *     than tab, space, visible ASCII and U+0080..U+00FF (no CR, LF or NUL);</li>
 * <li>an ordering key that is empty, longer than {@value #ORDERING_KEY_MAX_BYTES} bytes or holds
 *     anything but printable ASCII without space;</li>
 * <li>no sinks and no event type, a duplicate sink, a sink outside 0..65535, and more than
 *     {@value #SINKS_MAX} sinks (the stored count is 16 bits);</li>
 * <li>an event type that is not a dotted name of {@code [A-Za-z0-9_:-]} segments
 *     ({@code invoice.paid}) of at most {@value #EVENT_TYPE_MAX_BYTES} characters, and an event
 *     type together with sinks (a hook is addressed by one or the other).</li>
 * </ul>
 * The payload limit is the queue's configuration and is checked by {@code Queue.ingest}. Immutable;
 * the payload is copied in and out.
 */
public final class Hook {

    /** The tenant of a hook without a tenant id. */
    public static final String DEFAULT_TENANT = "default";

    /** Longest tenant id in UTF-8 bytes. */
    public static final int TENANT_MAX_BYTES = 255;

    /** Longest idempotency key in UTF-8 bytes. */
    public static final int IDEMPOTENCY_KEY_MAX_BYTES = 255;

    /**
     * Longest tenant id and idempotency key together, in UTF-8 bytes: the dedupe expiry key holds
     * both plus 10 bytes, and LMDB keys hold at most 511.
     */
    public static final int TENANT_AND_KEY_MAX_BYTES = 501;

    /** Longest hook id in bytes (it is printable ASCII). */
    public static final int ID_MAX_BYTES = 255;

    /** Longest source id in UTF-8 bytes. */
    public static final int SOURCE_MAX_BYTES = 255;

    /** Most headers on one hook. */
    public static final int HEADERS_MAX = 64;

    /** Most UTF-8 bytes of header names and values together. */
    public static final int HEADERS_MAX_BYTES = 16 * 1024;

    /** Most bytes of an ordering key (printable ASCII, one byte a character). */
    public static final int ORDERING_KEY_MAX_BYTES = 255;

    /** Most sinks on one hook (the stored sink count is 16 bits). */
    public static final int SINKS_MAX = 0xFFFF;

    /** Longest event type in characters (it is ASCII, one byte a character). */
    public static final int EVENT_TYPE_MAX_BYTES = 255;

    /** A dotted name: segments of letters, digits, {@code _ : -}, joined by full stops. */
    private static final Pattern EVENT_TYPE = Pattern.compile("[A-Za-z0-9_:-]+(\\.[A-Za-z0-9_:-]+)*");

    static {
        StoredHooks.register(Builder::buildStored);
    }

    private final String id;
    private final String sourceId;
    private final String tenantId;
    private final Map<String, String> headers;
    private final byte[] payload;
    private final String idempotencyKey;
    private final List<Integer> sinks;
    private final String orderingKey;
    private final TraceContext traceContext;
    private final String eventType;

    private Hook(Builder b) {
        this.id = b.id;
        this.sourceId = b.sourceId;
        this.tenantId = b.tenantId;
        this.headers = Collections.unmodifiableMap(new LinkedHashMap<>(b.headers));
        this.payload = b.payload.clone();
        this.idempotencyKey = b.idempotencyKey;
        this.sinks = List.copyOf(b.sinks);
        this.orderingKey = b.orderingKey;
        this.traceContext = b.traceContext;
        this.eventType = b.eventType;
    }

    /** {@return a new builder} */
    public static Builder builder() {
        return new Builder();
    }

    /** {@return the hook's id (unique per source, chosen by the caller)} */
    public String id() {
        return id;
    }

    /** {@return the id of the source the hook came from} */
    public String sourceId() {
        return sourceId;
    }

    /** {@return the tenant id as given, if any} */
    public Optional<String> tenantId() {
        return Optional.ofNullable(tenantId);
    }

    /** {@return the tenant the hook is filed under: its tenant id, or {@value #DEFAULT_TENANT}} */
    public String tenant() {
        return tenantId != null ? tenantId : DEFAULT_TENANT;
    }

    /**
     * Headers in insertion order, read-only.
     *
     * @return the headers, read-only
     */
    public Map<String, String> headers() {
        return headers;
    }

    /** {@return the payload (a copy)} */
    public byte[] payload() {
        return payload.clone();
    }

    /** {@return the payload's length in bytes} */
    public int payloadLength() {
        return payload.length;
    }

    /** {@return the idempotency key, if any} */
    public Optional<String> idempotencyKey() {
        return Optional.ofNullable(idempotencyKey);
    }

    /**
     * {@return the ordering key, if any: deliveries of the same tenant, sink and key are attempted
     * one at a time, in ingest order}
     */
    public Optional<String> orderingKey() {
        return Optional.ofNullable(orderingKey);
    }

    /**
     * The sinks to deliver to, in the order given, each 0..65535, no duplicates: at least one, or
     * none for a hook built with an event type (the queue resolves its sinks at ingest; a hook
     * read back from the store carries the sinks it was written for).
     *
     * @return the sinks, read-only
     */
    public List<Integer> sinks() {
        return sinks;
    }

    /**
     * The event type, if any, such as {@code invoice.paid}: a hook with one and no sinks fans out
     * at ingest to each of its tenant's registered endpoints subscribed to the type.
     *
     * @return the event type, if the hook has one
     */
    public Optional<String> eventType() {
        return Optional.ofNullable(eventType);
    }

    /**
     * The trace the hook was produced in, if the caller set one. When it is absent, the queue
     * captures the caller's current OpenTelemetry context at {@code ingest} (when the queue was
     * given an OpenTelemetry) and stores that with the hook instead.
     *
     * @return the trace context given to the builder, if any
     */
    public Optional<TraceContext> traceContext() {
        return Optional.ofNullable(traceContext);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Hook h && id.equals(h.id) && sourceId.equals(h.sourceId)
                && Objects.equals(tenantId, h.tenantId) && headers.equals(h.headers)
                && Arrays.equals(payload, h.payload) && Objects.equals(idempotencyKey, h.idempotencyKey)
                && sinks.equals(h.sinks) && Objects.equals(orderingKey, h.orderingKey)
                && Objects.equals(traceContext, h.traceContext) && Objects.equals(eventType, h.eventType);
    }

    @Override
    public int hashCode() {
        return Objects.hash(id, sourceId, tenantId, headers, Arrays.hashCode(payload), idempotencyKey, sinks,
                orderingKey, traceContext, eventType);
    }

    @Override
    public String toString() {
        return "Hook[id=" + id + ", source=" + sourceId + ", tenant=" + tenant() + ", sinks=" + sinks
                + (eventType != null ? ", eventType=" + eventType : "") + ", payload=" + payload.length + " bytes]";
    }

    /** Builds a {@link Hook}; {@link #build()} checks the input rules. Not thread-safe. */
    public static final class Builder {

        private String id;
        private String sourceId;
        private String tenantId;
        private final Map<String, String> headers = new LinkedHashMap<>();
        private byte[] payload = new byte[0];
        private String idempotencyKey;
        private final List<Integer> sinks = new ArrayList<>();
        private String orderingKey;
        private TraceContext traceContext;
        private String eventType;

        private Builder() {
        }

        /**
         * Sets the event type (such as {@code invoice.paid}): instead of naming sinks, the hook is
         * written at ingest for each endpoint of its tenant's registry that subscribes to the type
         * (an exact name or a {@code prefix.*} pattern), in the same synced commit. A hook with an
         * event type names no sinks ({@link #build()} refuses both).
         *
         * @param eventType a dotted name of {@code [A-Za-z0-9_:-]} segments
         * @return this builder
         */
        public Builder eventType(String eventType) {
            this.eventType = Objects.requireNonNull(eventType, "eventType");
            return this;
        }

        /**
         * Sets the trace the hook belongs to (a W3C traceparent and tracestate, validated by
         * {@link TraceContext}); leave unset to let the queue capture the caller's current context.
         *
         * @param traceContext the producer's trace context
         * @return this builder
         */
        public Builder traceContext(TraceContext traceContext) {
            this.traceContext = Objects.requireNonNull(traceContext, "traceContext");
            return this;
        }

        /**
         * Sets the hook id (required): printable ASCII without spaces or full stops, such as {@code msg_} and a ULID.
         *
         * @param id the hook id (required): printable ASCII without spaces or full stops, such as {@code msg_} and a
         *     ULID
         * @return this builder
         */
        public Builder id(String id) {
            this.id = Objects.requireNonNull(id, "id");
            return this;
        }

        /**
         * Sets the source id (required, non-empty).
         *
         * @param sourceId the source id (required, non-empty)
         * @return this builder
         */
        public Builder sourceId(String sourceId) {
            this.sourceId = Objects.requireNonNull(sourceId, "sourceId");
            return this;
        }

        /**
         * Sets the tenant id; leave unset for {@value #DEFAULT_TENANT}.
         *
         * @param tenantId the tenant id; leave unset for {@value #DEFAULT_TENANT}
         * @return this builder
         */
        public Builder tenantId(String tenantId) {
            this.tenantId = Objects.requireNonNull(tenantId, "tenantId");
            return this;
        }

        /**
         * Adds (or replaces) a header.
         *
         * @param name the header name
         * @param value its value
         * @return this builder
         */
        public Builder header(String name, String value) {
            headers.put(Objects.requireNonNull(name, "name"), Objects.requireNonNull(value, "value"));
            return this;
        }

        /**
         * Sets the headers, replacing all set before.
         *
         * @param headers the headers, by name
         * @return this builder
         */
        public Builder headers(Map<String, String> headers) {
            this.headers.clear();
            headers.forEach(this::header);
            return this;
        }

        /**
         * Sets the payload (copied).
         *
         * @param payload the payload (copied)
         * @return this builder
         */
        public Builder payload(byte[] payload) {
            this.payload = Objects.requireNonNull(payload, "payload").clone();
            return this;
        }

        /**
         * Sets the payload as UTF-8 text.
         *
         * @param payload the payload as UTF-8 text
         * @return this builder
         * @throws InvalidHookException ({@code payload_invalid}) if the text is not valid UTF-16
         */
        public Builder payload(String payload) {
            int at = HookInputRules.unpairedSurrogate(payload);
            if (at >= 0) {
                throw new InvalidHookException(InvalidHookException.Reason.PAYLOAD_INVALID,
                        "payload text is not valid UTF-16: unpaired surrogate at index " + at);
            }
            return payload(payload.getBytes(StandardCharsets.UTF_8));
        }

        /**
         * The idempotency key (1..255 UTF-8 bytes): within the queue's dedupe window, a later hook
         * of the same tenant with the same key is not queued again; its ingest completes with the
         * first one's receipt.
         *
         * @param idempotencyKey the key, unique per tenant within the dedupe window
         * @return this builder
         */
        public Builder idempotencyKey(String idempotencyKey) {
            this.idempotencyKey = Objects.requireNonNull(idempotencyKey, "idempotencyKey");
            return this;
        }

        /**
         * The ordering key (1..{@value Hook#ORDERING_KEY_MAX_BYTES} characters of printable ASCII
         * without space, such as an order id): the hook's delivery to each of its sinks is attempted
         * only after every earlier hook of the same tenant with the same key was delivered to that
         * sink or dead-lettered there. A constant key orders every such hook of the tenant per sink
         * (strict per-endpoint order).
         *
         * @param orderingKey the key
         * @return this builder
         */
        public Builder orderingKey(String orderingKey) {
            this.orderingKey = Objects.requireNonNull(orderingKey, "orderingKey");
            return this;
        }

        /**
         * Sets the sinks the hook fans out to, replacing any set before (each 0 .. 65 535, no
         * duplicates, at least one; checked by {@link #build()}).
         *
         * @param sinks the sink numbers, in the order their deliveries are made
         * @return this builder
         */
        public Builder sinks(int... sinks) {
            this.sinks.clear();
            for (int sink : sinks) {
                this.sinks.add(sink);
            }
            return this;
        }

        /**
         * Sets the sinks the hook fans out to, replacing any set before; see {@link #sinks(int...)}.
         *
         * @param sinks the sink numbers, none null
         * @return this builder
         */
        public Builder sinks(List<Integer> sinks) {
            List<Integer> copy = new ArrayList<>(sinks.size());
            sinks.forEach(s -> copy.add(Objects.requireNonNull(s, "sink")));
            this.sinks.clear();
            this.sinks.addAll(copy);
            return this;
        }

        /**
         * Adds one sink after those set so far.
         *
         * @param sink the sink number
         * @return this builder
         */
        public Builder addSink(int sink) {
            this.sinks.add(sink);
            return this;
        }

        /**
         * The hook.
         *
         * @return the hook
         * @throws InvalidHookException if a rule is broken (see {@link Hook})
         */
        public Hook build() {
            if (eventType != null && !sinks.isEmpty()) {
                throw new InvalidHookException(InvalidHookException.Reason.EVENT_TYPE_WITH_SINKS,
                        "hook '" + id + "' has an event type and sinks; it is addressed by one or the other");
            }
            checkStorable(eventType != null);
            HookInputRules.check(id, sourceId, tenantId, idempotencyKey, headers);
            return new Hook(this);
        }

        /** The hook as read back from a store: checked against what its stored form can hold only. */
        private Hook buildStored() {
            checkStorable(false);
            return new Hook(this);
        }

        /** Sinks up to which duplicates are looked for without a set. */
        private static final int FEW_SINKS = 8;

        /**
         * The rules every stored hook meets, whichever release wrote it; {@code mayHaveNoSinks}
         * for a hook given with an event type, whose sinks the queue resolves (a stored one has its
         * sinks).
         */
        private void checkStorable(boolean mayHaveNoSinks) {
            if (id == null || id.isEmpty()) {
                throw new InvalidHookException(InvalidHookException.Reason.MISSING_ID, "a hook needs a non-empty id");
            }
            if (!signable(id)) {
                throw new InvalidHookException(InvalidHookException.Reason.INVALID_ID,
                        "a hook id is printable ASCII without spaces or full stops (it is signed as webhook-id)");
            }
            if (sourceId == null || sourceId.isEmpty()) {
                throw new InvalidHookException(InvalidHookException.Reason.MISSING_SOURCE,
                        "hook '" + id + "' needs a non-empty source id");
            }
            if (tenantId != null) {
                checkTenant(tenantId);
            }
            if (idempotencyKey != null) {
                checkIdempotencyKey(idempotencyKey);
            }
            if (orderingKey != null) {
                checkOrderingKey(orderingKey);
            }
            if (eventType != null) {
                checkEventType(eventType);
            }
            if (sinks.isEmpty() && !mayHaveNoSinks) {
                throw new InvalidHookException(InvalidHookException.Reason.NO_SINKS,
                        "hook '" + id + "' has no sinks and no event type");
            }
            if (sinks.size() > SINKS_MAX) {
                throw new InvalidHookException(InvalidHookException.Reason.TOO_MANY_SINKS,
                        "hook '" + id + "' has " + sinks.size() + " sinks; at most " + SINKS_MAX);
            }
            // Checked for every hook a claim reads back, too: no set for the usual one or few sinks.
            Set<Integer> seen = sinks.size() > FEW_SINKS ? new HashSet<>() : null;
            for (int i = 0; i < sinks.size(); i++) {
                int sink = sinks.get(i);
                if (sink < 0 || sink > 0xFFFF) {
                    throw new InvalidHookException(InvalidHookException.Reason.SINK_OUT_OF_RANGE,
                            "sink " + sink + " of hook '" + id + "' is outside 0..65535");
                }
                if (seen == null ? sinks.subList(0, i).contains(sink) : !seen.add(sink)) {
                    throw new InvalidHookException(InvalidHookException.Reason.DUPLICATE_SINK,
                            "sink " + sink + " appears twice in hook '" + id + "'");
                }
            }
        }

        /** Printable ASCII (0x21..0x7E) except the full stop that separates the signed parts. */
        private static boolean signable(String id) {
            for (int i = 0; i < id.length(); i++) {
                char c = id.charAt(i);
                if (c <= 0x20 || c >= 0x7F || c == '.') {
                    return false;
                }
            }
            return true;
        }

        private static void checkOrderingKey(String key) {
            if (key.isEmpty()) {
                throw new InvalidHookException(InvalidHookException.Reason.ORDERING_KEY_EMPTY,
                        "ordering key is empty (leave it unset for none)");
            }
            if (key.length() > ORDERING_KEY_MAX_BYTES) {
                throw new InvalidHookException(InvalidHookException.Reason.ORDERING_KEY_TOO_LONG,
                        "ordering key is " + key.length() + " characters; at most " + ORDERING_KEY_MAX_BYTES);
            }
            for (int i = 0; i < key.length(); i++) {
                char c = key.charAt(i);
                if (c <= 0x20 || c >= 0x7F) {
                    throw new InvalidHookException(InvalidHookException.Reason.ORDERING_KEY_INVALID,
                            "ordering key holds a character that is not printable ASCII at index " + i);
                }
            }
        }

        private static void checkEventType(String type) {
            if (type.length() > EVENT_TYPE_MAX_BYTES || !EVENT_TYPE.matcher(type).matches()) {
                throw new InvalidHookException(InvalidHookException.Reason.EVENT_TYPE_INVALID,
                        "an event type is a dotted name of [A-Za-z0-9_:-] of at most " + EVENT_TYPE_MAX_BYTES
                                + " characters");
            }
        }

        private static void checkIdempotencyKey(String key) {
            if (key.isEmpty()) {
                throw new InvalidHookException(InvalidHookException.Reason.IDEMPOTENCY_KEY_EMPTY,
                        "idempotency key is empty (leave it unset for none)");
            }
            int bytes = key.getBytes(StandardCharsets.UTF_8).length;
            if (bytes > IDEMPOTENCY_KEY_MAX_BYTES) {
                throw new InvalidHookException(InvalidHookException.Reason.IDEMPOTENCY_KEY_TOO_LONG,
                        "idempotency key is " + bytes + " UTF-8 bytes; at most " + IDEMPOTENCY_KEY_MAX_BYTES);
            }
        }

        private static void checkTenant(String tenant) {
            if (tenant.isEmpty()) {
                throw new InvalidHookException(InvalidHookException.Reason.TENANT_EMPTY,
                        "tenant id is empty (leave it unset for '" + DEFAULT_TENANT + "')");
            }
            if (tenant.indexOf('\0') >= 0) {
                throw new InvalidHookException(InvalidHookException.Reason.TENANT_CONTAINS_NUL,
                        "tenant id contains NUL");
            }
            int bytes = tenant.getBytes(StandardCharsets.UTF_8).length;
            if (bytes > TENANT_MAX_BYTES) {
                throw new InvalidHookException(InvalidHookException.Reason.TENANT_TOO_LONG,
                        "tenant id is " + bytes + " UTF-8 bytes; at most " + TENANT_MAX_BYTES);
            }
        }
    }
}

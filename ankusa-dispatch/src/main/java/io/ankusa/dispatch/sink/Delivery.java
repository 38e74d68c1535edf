package io.ankusa.dispatch.sink;

import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * One attempt at one (hook, sink) delivery: what a {@link Sink} receives.
 *
 * <p>The same hook reaches a sink again after a retry, a replay or a crash (delivery is at least
 * once), always with the same {@link #hookId()}: receivers deduplicate on it. The payload is copied
 * on the way in and by {@link #payload()} on the way out, so a sink cannot change what a later
 * attempt sends; {@link #payloadBuffer()} reads it without a copy.
 *
 * @param hookId      the hook's id; the Standard Webhooks {@code webhook-id}, stable across attempts
 * @param sourceId    the id of the source that sent the hook
 * @param tenantId    the hook's tenant ({@code "default"} when the hook named none)
 * @param sink        the sink number the hook fans out to, an unsigned 16-bit value (0 .. 65 535)
 * @param attempt     this attempt's number, 1 for the first
 * @param headers     the hook's headers, name to value, in the order they were ingested; unmodifiable
 * @param payload     the hook's payload
 * @param ingestedAt  when the hook was ingested
 * @param attemptedAt when the pipeline started this attempt (claim time)
 */
public record Delivery(
        String hookId,
        String sourceId,
        String tenantId,
        int sink,
        int attempt,
        Map<String, String> headers,
        byte[] payload,
        Instant ingestedAt,
        Instant attemptedAt) {

    /** The largest sink number: sink numbers are unsigned 16-bit. */
    public static final int MAX_SINK = 0xFFFF;

    /**
     * Validates, and copies the headers (keeping their order) and the payload.
     *
     * @param hookId the hook's id; the Standard Webhooks {@code webhook-id}, stable across attempts
     * @param sourceId the id of the source that sent the hook
     * @param tenantId the hook's tenant ({@code "default"} when the hook named none)
     * @param sink the sink number the hook fans out to, an unsigned 16-bit value (0 .. 65 535)
     * @param attempt this attempt's number, 1 for the first
     * @param headers the hook's headers, name to value, in the order they were ingested; unmodifiable
     * @param payload the hook's payload
     * @param ingestedAt when the hook was ingested
     * @param attemptedAt when the pipeline started this attempt (claim time)
     */
    public Delivery {
        Objects.requireNonNull(hookId, "hookId");
        Objects.requireNonNull(sourceId, "sourceId");
        Objects.requireNonNull(tenantId, "tenantId");
        Objects.requireNonNull(ingestedAt, "ingestedAt");
        Objects.requireNonNull(attemptedAt, "attemptedAt");
        if (hookId.isEmpty()) {
            throw new IllegalArgumentException("hookId must not be empty");
        }
        if (sink < 0 || sink > MAX_SINK) {
            throw new IllegalArgumentException("sink must be in 0.." + MAX_SINK + ": " + sink);
        }
        if (attempt < 1) {
            throw new IllegalArgumentException("attempt is 1-based: " + attempt);
        }
        headers = copyOf(headers);
        payload = payload.clone();
    }

    /**
     * A copy of the payload.
     *
     * @return a fresh copy of the hook's payload; changing it changes nothing else
     */
    @Override
    public byte[] payload() {
        return payload.clone();
    }

    /**
     * The payload as a read-only view, without copying it: what a sink that only reads or sends
     * the bytes should use ({@link #payload()} copies on every call).
     *
     * @return a read-only buffer over the hook's payload, positioned at 0, its limit the payload's length
     */
    public ByteBuffer payloadBuffer() {
        return ByteBuffer.wrap(payload).asReadOnlyBuffer();
    }

    /**
     * The payload's length in bytes, without copying it.
     *
     * @return the payload's length in bytes
     */
    public int payloadSize() {
        return payload.length;
    }

    /** Equal when every component is, the payload compared by content. */
    @Override
    public boolean equals(Object other) {
        return other instanceof Delivery that
                && hookId.equals(that.hookId)
                && sourceId.equals(that.sourceId)
                && tenantId.equals(that.tenantId)
                && sink == that.sink
                && attempt == that.attempt
                && headers.equals(that.headers)
                && Arrays.equals(payload, that.payload)
                && ingestedAt.equals(that.ingestedAt)
                && attemptedAt.equals(that.attemptedAt);
    }

    @Override
    public int hashCode() {
        int hash = Objects.hash(hookId, sourceId, tenantId, sink, attempt, headers, ingestedAt, attemptedAt);
        return 31 * hash + Arrays.hashCode(payload);
    }

    /**
     * Names the delivery without its content: header names only (values may hold credentials) and
     * the payload's size, never its bytes.
     */
    @Override
    public String toString() {
        return "Delivery[hookId=" + hookId
                + ", sourceId=" + sourceId
                + ", tenantId=" + tenantId
                + ", sink=" + sink
                + ", attempt=" + attempt
                + ", headers=" + headers.keySet()
                + ", payload=" + payload.length + " bytes"
                + ", ingestedAt=" + ingestedAt
                + ", attemptedAt=" + attemptedAt + "]";
    }

    private static Map<String, String> copyOf(Map<String, String> headers) {
        var copy = new LinkedHashMap<String, String>(Math.max(4, headers.size() * 2));
        headers.forEach((name, value) -> copy.put(
                Objects.requireNonNull(name, "header name"),
                Objects.requireNonNull(value, () -> "value of header " + name)));
        return Collections.unmodifiableMap(copy);
    }
}

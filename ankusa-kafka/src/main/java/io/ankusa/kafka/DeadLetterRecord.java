package io.ankusa.kafka;

import io.ankusa.api.DeadLetter;
import io.ankusa.api.Hook;
import io.ankusa.api.InvalidTraceContextException;
import io.ankusa.api.TraceContext;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Optional;
import org.apache.kafka.common.header.Headers;

/**
 * One dead letter as published to the compacted dead-letter topic ({@code <topic>.dead}), in the
 * partition of the intake partition whose store dead-lettered it. The key names the delivery, so
 * compaction keeps one record per (hook, sink); a tombstone (null value) says it is dead no more
 * (replayed or purged).
 *
 * <p>Key: {@code tenant US sourceId US hookId US sink} (US = U+001F, which no printable id holds).
 * Value (Java's {@code DataOutput}; strings as modified UTF-8 with a u16 length):
 * <pre>
 * version u8 (1) | tenant | sourceId | hookId | sink u16 | seq i64 | offset i64 (-1 unknown)
 * | deadAt i64 (epoch ms) | attempts i32 | lastError length u32 | lastError UTF-8
 * | hook length i32 (-1: not stored) | hook (the intake record encoding, {@link HookRecord})
 * </pre>
 *
 * <p>The stored hook's trace context travels in the record headers, as on the intake topic
 * ({@link HookRecord#writeTrace}), so a restored letter's hook keeps its trace; trace headers that
 * do not parse are dropped on reading (the letter is what matters, not its trace).
 *
 * @param letter the dead letter, as the store lists it
 * @param offset the intake offset of its hook, or -1 when the node did not know it
 * @param hook   the hook, as stored (empty when the store no longer had it: such a letter cannot be restored)
 */
record DeadLetterRecord(DeadLetter letter, long offset, Optional<Hook> hook) {

    private static final int VERSION = 1;
    private static final char SEPARATOR = '\u001f';

    /** The record key of a delivery: one per (hook, sink). */
    static String key(String tenant, String sourceId, String hookId, int sink) {
        return tenant + SEPARATOR + sourceId + SEPARATOR + hookId + SEPARATOR + sink;
    }

    /** The record key of {@code letter}. */
    static String key(DeadLetter letter) {
        return key(letter.tenantId(), letter.sourceId(), letter.hookId(), letter.sink());
    }

    String key() {
        return key(letter);
    }

    /** Writes the stored hook's trace context, if it has one, into the record's headers. */
    void writeTrace(Headers headers) {
        hook.flatMap(Hook::traceContext).ifPresent(trace -> HookRecord.writeTrace(trace, headers));
    }

    byte[] encode() {
        byte[] error = letter.lastError().getBytes(StandardCharsets.UTF_8);
        byte[] hookBytes = hook.map(HookRecord::encode).orElse(null);
        ByteArrayOutputStream bytes =
                new ByteArrayOutputStream(128 + error.length + (hookBytes == null ? 0 : hookBytes.length));
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(VERSION);
            out.writeUTF(letter.tenantId());
            out.writeUTF(letter.sourceId());
            out.writeUTF(letter.hookId());
            out.writeShort(letter.sink());
            out.writeLong(letter.seq());
            out.writeLong(offset);
            out.writeLong(letter.deadAt().toEpochMilli());
            out.writeInt(letter.attempts());
            out.writeInt(error.length);
            out.write(error);
            if (hookBytes == null) {
                out.writeInt(-1);
            } else {
                out.writeInt(hookBytes.length);
                out.write(hookBytes);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    /**
     * Decodes a record, its hook with the trace context of the record's headers.
     *
     * @throws IllegalArgumentException when it is not a dead-letter record this version writes
     */
    static DeadLetterRecord decode(byte[] value, Headers headers) {
        TraceContext trace;
        try {
            trace = HookRecord.readTrace(headers);
        } catch (InvalidTraceContextException e) {
            trace = null;
        }
        return decode(value, trace);
    }

    private static DeadLetterRecord decode(byte[] value, TraceContext trace) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(value))) {
            int version = in.readUnsignedByte();
            if (version != VERSION) {
                throw new IllegalArgumentException("unknown dead-letter record version " + version);
            }
            String tenant = in.readUTF();
            String sourceId = in.readUTF();
            String hookId = in.readUTF();
            int sink = in.readUnsignedShort();
            long seq = in.readLong();
            long offset = in.readLong();
            Instant deadAt = Instant.ofEpochMilli(in.readLong());
            int attempts = in.readInt();
            String error = new String(readBytes(in, in.readInt()), StandardCharsets.UTF_8);
            int hookLength = in.readInt();
            Optional<Hook> hook = hookLength < 0 ? Optional.empty()
                    : Optional.of(HookRecord.decode(readBytes(in, hookLength), trace));
            if (in.available() != 0) {
                throw new IllegalArgumentException("dead-letter record has " + in.available() + " trailing bytes");
            }
            return new DeadLetterRecord(new DeadLetter(tenant, sourceId, hookId, seq, sink, deadAt, attempts, error),
                    offset, hook);
        } catch (IOException e) {
            throw new IllegalArgumentException("dead-letter record does not decode: " + e, e);
        }
    }

    private static byte[] readBytes(DataInputStream in, int length) throws IOException {
        if (length < 0 || length > in.available()) {
            throw new IllegalArgumentException("dead-letter record length " + length + " overruns the record");
        }
        return in.readNBytes(length);
    }
}

package io.ankusa.queue.deliveries;

import io.ankusa.store.StoreCorruptionException;
import io.ankusa.keys.StrictUtf8;
import java.nio.charset.CharacterCodingException;
import java.util.Arrays;

/** Big-endian primitives of the queue's binary codecs: a writer and a strict bounds-checked reader. */
final class Wire {

    private Wire() {
    }

    /**
     * Appends big-endian fields to an array of its own (not a {@code ByteArrayOutputStream}, whose
     * every one-byte write takes a lock); with an exact size hint {@link #toByteArray} copies nothing.
     */
    static final class Out {
        private byte[] buf;
        private int len;

        Out(int sizeHint) {
            buf = new byte[Math.max(16, sizeHint)];
        }

        private void room(int n) {
            if (len + n > buf.length) {
                buf = Arrays.copyOf(buf, Math.max(len + n, buf.length * 2));
            }
        }

        Out u8(int v) {
            room(1);
            buf[len++] = (byte) v;
            return this;
        }

        Out u16(int v) {
            room(2);
            buf[len++] = (byte) (v >>> 8);
            buf[len++] = (byte) v;
            return this;
        }

        Out u32(long v) {
            room(4);
            for (int shift = 24; shift >= 0; shift -= 8) {
                buf[len++] = (byte) (v >>> shift);
            }
            return this;
        }

        Out u64(long v) {
            room(8);
            for (int shift = 56; shift >= 0; shift -= 8) {
                buf[len++] = (byte) (v >>> shift);
            }
            return this;
        }

        Out bytes(byte[] b) {
            u32(b.length);
            room(b.length);
            System.arraycopy(b, 0, buf, len, b.length);
            len += b.length;
            return this;
        }

        /** Appends {@code s} as {@code u32 length, UTF-8}; refuses a string that is not valid UTF-16. */
        Out string(String s) {
            return bytes(StrictUtf8.encode("a string of the envelope", s));
        }

        /** The bytes appended: the array itself when the size hint was exact, else a copy of its used part. */
        byte[] toByteArray() {
            return len == buf.length ? buf : Arrays.copyOf(buf, len);
        }
    }

    /** Reads big-endian fields; any overrun or leftover is corruption naming {@code what}. */
    static final class In {
        private final String what;
        private final byte[] in;
        private int pos;

        In(String what, byte[] in) {
            this.what = what;
            this.in = in;
        }

        private void need(int n) {
            if (n < 0 || in.length - pos < n) {
                throw corrupt("truncated at byte " + pos + " (needed " + n + " more of " + in.length + ")");
            }
        }

        int u8() {
            need(1);
            return in[pos++] & 0xFF;
        }

        int u16() {
            need(2);
            int v = ((in[pos] & 0xFF) << 8) | (in[pos + 1] & 0xFF);
            pos += 2;
            return v;
        }

        long u32() {
            need(4);
            long v = 0;
            for (int i = 0; i < 4; i++) {
                v = (v << 8) | (in[pos++] & 0xFF);
            }
            return v;
        }

        long u64() {
            need(8);
            long v = 0;
            for (int i = 0; i < 8; i++) {
                v = (v << 8) | (in[pos++] & 0xFF);
            }
            return v;
        }

        byte[] bytes() {
            long n = u32();
            if (n > in.length - pos) {
                throw corrupt("length " + n + " at byte " + (pos - 4) + " overruns " + in.length + " bytes");
            }
            byte[] out = new byte[(int) n];
            System.arraycopy(in, pos, out, 0, out.length);
            pos += out.length;
            return out;
        }

        /**
         * Skips a {@code u32 length, bytes} field without copying it and returns where its bytes
         * start; they end at {@link #position()}.
         */
        int skipBytes() {
            long n = u32();
            if (n > in.length - pos) {
                throw corrupt("length " + n + " at byte " + (pos - 4) + " overruns " + in.length + " bytes");
            }
            int start = pos;
            pos += (int) n;
            return start;
        }

        /** The next byte to read. */
        int position() {
            return pos;
        }

        /** A string; bytes that are not well-formed UTF-8 are corruption, never replaced by U+FFFD. */
        String string() {
            int at = pos;
            byte[] b = bytes();
            try {
                return StrictUtf8.decode(b, 0, b.length);
            } catch (CharacterCodingException e) {
                throw corrupt("malformed UTF-8 in the string at byte " + at);
            }
        }

        void end() {
            if (pos != in.length) {
                throw corrupt((in.length - pos) + " trailing bytes");
            }
        }

        StoreCorruptionException corrupt(String why) {
            return new StoreCorruptionException(what + ": " + why);
        }
    }
}

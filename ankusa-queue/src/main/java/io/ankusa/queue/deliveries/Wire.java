package io.ankusa.queue.deliveries;

import io.ankusa.store.StoreCorruptionException;
import java.io.ByteArrayOutputStream;
import io.ankusa.keys.StrictUtf8;
import java.nio.charset.CharacterCodingException;

/** Big-endian primitives of the queue's binary codecs: a writer and a strict bounds-checked reader. */
final class Wire {

    private Wire() {
    }

    /** Appends big-endian fields. */
    static final class Out {
        private final ByteArrayOutputStream out;

        Out(int sizeHint) {
            out = new ByteArrayOutputStream(sizeHint);
        }

        Out u8(int v) {
            out.write(v);
            return this;
        }

        Out u16(int v) {
            out.write(v >>> 8);
            out.write(v);
            return this;
        }

        Out u32(long v) {
            for (int shift = 24; shift >= 0; shift -= 8) {
                out.write((int) (v >>> shift));
            }
            return this;
        }

        Out u64(long v) {
            for (int shift = 56; shift >= 0; shift -= 8) {
                out.write((int) (v >>> shift));
            }
            return this;
        }

        Out bytes(byte[] b) {
            u32(b.length);
            out.write(b, 0, b.length);
            return this;
        }

        /** Appends {@code s} as {@code u32 length, UTF-8}; refuses a string that is not valid UTF-16. */
        Out string(String s) {
            return bytes(StrictUtf8.encode("a string of the envelope", s));
        }

        byte[] toByteArray() {
            return out.toByteArray();
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

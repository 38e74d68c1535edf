package io.ankusa.keys;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Strings to UTF-8 bytes and back, refusing what {@link String#getBytes} and {@code new String}
 * would silently replace: an unpaired surrogate would otherwise become {@code '?'} and two
 * different strings one key (two tenants merged, two idempotency keys treated as one).
 */
public final class StrictUtf8 {

    private StrictUtf8() {
    }

    /**
     * The UTF-8 bytes of {@code s}.
     *
     * @param what names the string in the refusal, such as {@code "tenant id"}
     * @throws IllegalArgumentException if {@code s} is not valid UTF-16
     */
    public static byte[] encode(String what, String s) {
        if (!hasSurrogate(s)) {
            // Without surrogates getBytes replaces nothing: the same bytes, without a new encoder per call.
            return s.getBytes(StandardCharsets.UTF_8);
        }
        try {
            ByteBuffer bytes = StandardCharsets.UTF_8.newEncoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .encode(CharBuffer.wrap(s));
            byte[] out = new byte[bytes.remaining()];
            bytes.get(out);
            return out;
        } catch (CharacterCodingException e) {
            throw new IllegalArgumentException(what + " is not valid UTF-16 (an unpaired surrogate)", e);
        }
    }

    private static boolean hasSurrogate(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (Character.isSurrogate(s.charAt(i))) {
                return true;
            }
        }
        return false;
    }

    /**
     * The string {@code bytes[offset, offset + length)} encodes.
     *
     * @throws CharacterCodingException if those bytes are not well-formed UTF-8
     */
    public static String decode(byte[] bytes, int offset, int length) throws CharacterCodingException {
        if (isAscii(bytes, offset, length)) {
            // Well-formed UTF-8 whatever it holds, and the same string: skips a new decoder per call,
            // most of the cost of decoding a stored hook's ids.
            return new String(bytes, offset, length, StandardCharsets.US_ASCII);
        }
        return StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT)
                .decode(ByteBuffer.wrap(bytes, offset, length))
                .toString();
    }

    private static boolean isAscii(byte[] bytes, int offset, int length) {
        for (int i = offset; i < offset + length; i++) {
            if (bytes[i] < 0) {
                return false;
            }
        }
        return true;
    }
}

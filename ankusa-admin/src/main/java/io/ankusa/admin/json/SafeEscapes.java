package io.ankusa.admin.json;

import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.io.CharacterEscapes;

/**
 * JSON escapes that leave no markup character in the bytes: {@code < > & '} are written as
 * {@code \u003c}-style escapes (with non-ASCII, escaped by the writer's feature), so an answer
 * shown raw, sniffed or pasted into a page holds no tag, entity or bidi control.
 */
final class SafeEscapes extends CharacterEscapes {

    private static final long serialVersionUID = 1L;

    private final int[] ascii;

    SafeEscapes() {
        int[] table = CharacterEscapes.standardAsciiEscapesForJSON();
        for (char c : "<>&'".toCharArray()) {
            table[c] = CharacterEscapes.ESCAPE_STANDARD;
        }
        this.ascii = table;
    }

    @Override
    public int[] getEscapeCodesForAscii() {
        return ascii.clone();
    }

    @Override
    public SerializableString getEscapeSequence(int ch) {
        return null;
    }
}

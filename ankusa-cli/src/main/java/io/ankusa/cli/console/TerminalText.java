package io.ankusa.cli.console;

import java.util.Locale;

/**
 * Untrusted text made safe to print on an operator's terminal: tenant ids, hook and source ids,
 * last errors and anything else read from a store or a sink. A control character could move the
 * cursor, clear the screen or forge a line ({@code ESC [2J}, a line break followed by a fake
 * {@code tenants 0}), so every character that does not print as itself is shown escaped:
 * {@code \n}, {@code \r}, {@code \t}, {@code \\}, {@code \xNN} for other C0 and C1 controls and
 * DEL, {@code \\uNNNN} for format characters (bidi overrides, zero-width), line and paragraph
 * separators and unpaired surrogates. Letters of every script print as they are.
 */
public final class TerminalText {

    private TerminalText() {
    }

    /** {@code text}, escaped as the class describes; unchanged when it holds nothing to escape. */
    public static String escape(String text) {
        StringBuilder out = null;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            String escaped = escaped(text, i, c);
            if (escaped == null) {
                if (out != null) {
                    out.append(c);
                }
                continue;
            }
            if (out == null) {
                out = new StringBuilder(text.length() + 16).append(text, 0, i);
            }
            out.append(escaped);
        }
        return out == null ? text : out.toString();
    }

    /** How the char at {@code i} prints, or null when it prints as itself. */
    private static String escaped(String text, int i, char c) {
        switch (c) {
            case '\n':
                return "\\n";
            case '\r':
                return "\\r";
            case '\t':
                return "\\t";
            case '\\':
                return "\\\\";
            default:
                break;
        }
        if (c < 0x20 || c >= 0x7F && c <= 0x9F) {
            return String.format(Locale.ROOT, "\\x%02x", (int) c);
        }
        if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
            int type = Character.getType(text.codePointAt(i));
            return type == Character.FORMAT ? String.format(Locale.ROOT, "\\u%04x", (int) c) : null;
        }
        if (Character.isLowSurrogate(c) && i > 0 && Character.isHighSurrogate(text.charAt(i - 1))) {
            int type = Character.getType(text.codePointAt(i - 1));
            return type == Character.FORMAT ? String.format(Locale.ROOT, "\\u%04x", (int) c) : null;
        }
        int type = Character.getType(c);
        if (Character.isSurrogate(c) || type == Character.FORMAT || type == Character.LINE_SEPARATOR
                || type == Character.PARAGRAPH_SEPARATOR) {
            return String.format(Locale.ROOT, "\\u%04x", (int) c);
        }
        return null;
    }
}

package io.ankusa.cli.console;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Locale;

/**
 * Writes one JSON text (RFC 8259) for the {@code --json} output of the read commands: objects,
 * arrays, strings, whole numbers and {@code null}, on one line, in the order the caller writes them.
 *
 * <p>Strings are escaped so that any Java string, untrusted ones included (tenant ids, hook ids, a
 * sink's error text), comes out as valid JSON that decodes to the same characters: {@code "} and
 * {@code \} get a backslash; every control character (U+0000..U+001F, U+007F..U+009F), U+2028 and
 * U+2029 (line breaks to JavaScript), and an unpaired surrogate (which has no UTF-8 form) is written
 * as a {@code \}{@code uXXXX} escape. A caller that closes more than it opened, or names a member
 * outside an object, gets an {@link IllegalStateException}.
 */
public final class Json {

    private final StringBuilder text = new StringBuilder();
    /** Per open object or array: whether the next member needs a comma before it. */
    private final Deque<Boolean> separated = new ArrayDeque<>();
    /** Per open object or array: true for an object. */
    private final Deque<Boolean> objects = new ArrayDeque<>();
    private boolean afterName;

    /** Starts an empty JSON text; write exactly one value into it. */
    public Json() {
    }

    /**
     * Opens an object.
     *
     * @return this writer
     */
    public Json beginObject() {
        beforeValue();
        text.append('{');
        separated.push(false);
        objects.push(true);
        return this;
    }

    /**
     * Closes the innermost object.
     *
     * @return this writer
     */
    public Json endObject() {
        close(true);
        text.append('}');
        return this;
    }

    /**
     * Opens an array.
     *
     * @return this writer
     */
    public Json beginArray() {
        beforeValue();
        text.append('[');
        separated.push(false);
        objects.push(false);
        return this;
    }

    /**
     * Closes the innermost array.
     *
     * @return this writer
     */
    public Json endArray() {
        close(false);
        text.append(']');
        return this;
    }

    /**
     * Names the next member of the innermost object.
     *
     * @param name the member's name
     * @return this writer
     */
    public Json name(String name) {
        if (objects.isEmpty() || !objects.peek() || afterName) {
            throw new IllegalStateException("a member name outside an object: " + name);
        }
        comma();
        quote(name);
        text.append(':');
        afterName = true;
        return this;
    }

    /**
     * Writes a string, or {@code null} when {@code value} is null.
     *
     * @param value the string
     * @return this writer
     */
    public Json value(String value) {
        beforeValue();
        if (value == null) {
            text.append("null");
        } else {
            quote(value);
        }
        return this;
    }

    /**
     * Writes a whole number.
     *
     * @param value the number
     * @return this writer
     */
    public Json value(long value) {
        beforeValue();
        text.append(value);
        return this;
    }

    /**
     * Writes {@code null}.
     *
     * @return this writer
     */
    public Json nullValue() {
        beforeValue();
        text.append("null");
        return this;
    }

    /**
     * A member with a string value: {@code name(name).value(value)}.
     *
     * @param name the member's name
     * @param value the string, or null for {@code null}
     * @return this writer
     */
    public Json member(String name, String value) {
        return name(name).value(value);
    }

    /**
     * A member with a number value: {@code name(name).value(value)}.
     *
     * @param name the member's name
     * @param value the number
     * @return this writer
     */
    public Json member(String name, long value) {
        return name(name).value(value);
    }

    /**
     * A member with a boolean value.
     *
     * @param name the member's name
     * @param value the boolean
     * @return this writer
     */
    public Json member(String name, boolean value) {
        name(name).beforeValue();
        text.append(value);
        return this;
    }

    /**
     * The JSON text written so far.
     *
     * @return the text
     * @throws IllegalStateException if an object or array is still open
     */
    public String text() {
        if (!objects.isEmpty() || afterName) {
            throw new IllegalStateException("an object or array is still open: " + text);
        }
        return text.toString();
    }

    @Override
    public String toString() {
        return text.toString();
    }

    /**
     * The JSON string literal of {@code value}, quotes included.
     *
     * @param value any string
     * @return the escaped, quoted string
     */
    public static String quoted(String value) {
        return new Json().value(value).text();
    }

    private void beforeValue() {
        if (objects.isEmpty()) {
            if (!text.isEmpty()) {
                throw new IllegalStateException("a JSON text holds one value: " + text);
            }
            return;
        }
        if (objects.peek()) {
            if (!afterName) {
                throw new IllegalStateException("an object member needs a name first: " + text);
            }
            afterName = false;
        } else {
            comma();
        }
    }

    private void comma() {
        if (separated.pop()) {
            text.append(',');
        }
        separated.push(true);
    }

    private void close(boolean object) {
        if (objects.isEmpty() || objects.peek() != object || afterName) {
            throw new IllegalStateException("nothing to close with " + (object ? "}" : "]") + ": " + text);
        }
        objects.pop();
        separated.pop();
    }

    private void quote(String value) {
        text.append('"');
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '"' -> text.append("\\\"");
                case '\\' -> text.append("\\\\");
                case '\n' -> text.append("\\n");
                case '\r' -> text.append("\\r");
                case '\t' -> text.append("\\t");
                case '\b' -> text.append("\\b");
                case '\f' -> text.append("\\f");
                default -> {
                    if (needsEscape(value, i)) {
                        text.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
                    } else {
                        text.append(c);
                    }
                }
            }
        }
        text.append('"');
    }

    /** A control character, a JavaScript line break, or a surrogate that is not half of a pair. */
    private static boolean needsEscape(String value, int i) {
        char c = value.charAt(i);
        if (c < 0x20 || (c >= 0x7f && c <= 0x9f) || c == '\u2028' || c == '\u2029') {
            return true;
        }
        if (Character.isHighSurrogate(c)) {
            return i + 1 >= value.length() || !Character.isLowSurrogate(value.charAt(i + 1));
        }
        if (Character.isLowSurrogate(c)) {
            return i == 0 || !Character.isHighSurrogate(value.charAt(i - 1));
        }
        return false;
    }
}

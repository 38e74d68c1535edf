package io.ankusa.api;

import io.ankusa.api.InvalidHookException.Reason;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The rules a new hook must meet on top of what its stored form can hold: bounded ids and headers,
 * strings that are valid UTF-16 (so they encode to exactly one UTF-8 byte string), header names
 * and values HTTP can send, and tenant and source ids that print safely. A hook read back from a
 * store is not checked against these (it was acknowledged under the rules of its day).
 */
final class HookInputRules {

    private HookInputRules() {
    }

    static void check(String id, String sourceId, String tenantId, String idempotencyKey, Map<String, String> headers) {
        if (id.length() > Hook.ID_MAX_BYTES) {
            // The id is printable ASCII by then: one byte per character.
            throw new InvalidHookException(Reason.ID_TOO_LONG,
                    "hook id is " + id.length() + " bytes; at most " + Hook.ID_MAX_BYTES);
        }
        printableProblem(sourceId).ifPresent(p -> {
            throw new InvalidHookException(Reason.SOURCE_INVALID, "source id " + p);
        });
        int sourceBytes = utf8Length(sourceId);
        if (sourceBytes > Hook.SOURCE_MAX_BYTES) {
            throw new InvalidHookException(Reason.SOURCE_TOO_LONG,
                    "source id is " + sourceBytes + " UTF-8 bytes; at most " + Hook.SOURCE_MAX_BYTES);
        }
        if (tenantId != null) {
            printableProblem(tenantId).ifPresent(p -> {
                throw new InvalidHookException(Reason.TENANT_INVALID, "tenant id " + p);
            });
        }
        if (idempotencyKey != null) {
            int at = unpairedSurrogate(idempotencyKey);
            if (at >= 0) {
                throw new InvalidHookException(Reason.IDEMPOTENCY_KEY_INVALID,
                        "idempotency key is not valid UTF-16: unpaired surrogate at index " + at);
            }
            int together = utf8Length(idempotencyKey) + (tenantId == null ? 0 : utf8Length(tenantId));
            if (together > Hook.TENANT_AND_KEY_MAX_BYTES) {
                throw new InvalidHookException(Reason.IDEMPOTENCY_KEY_TOO_LONG, "tenant id and idempotency key are "
                        + together + " UTF-8 bytes together; at most " + Hook.TENANT_AND_KEY_MAX_BYTES);
            }
        }
        checkHeaders(headers);
    }

    private static void checkHeaders(Map<String, String> headers) {
        if (headers.size() > Hook.HEADERS_MAX) {
            throw new InvalidHookException(Reason.TOO_MANY_HEADERS,
                    headers.size() + " headers; at most " + Hook.HEADERS_MAX);
        }
        long bytes = 0;
        for (Map.Entry<String, String> header : headers.entrySet()) {
            String name = header.getKey();
            if (name.isEmpty() || !name.chars().allMatch(HookInputRules::tchar)) {
                throw new InvalidHookException(Reason.HEADER_NAME_INVALID,
                        "header name \"" + escaped(name) + "\" is not an RFC 9110 token");
            }
            String value = header.getValue();
            for (int i = 0; i < value.length(); i++) {
                if (!fieldChar(value.charAt(i))) {
                    throw new InvalidHookException(Reason.HEADER_VALUE_INVALID, "value of header " + name
                            + " has " + escaped(String.valueOf(value.charAt(i))) + " at index " + i
                            + "; allowed are tab, space, visible ASCII and U+0080..U+00FF");
                }
            }
            bytes += name.length() + utf8Length(value);
        }
        if (bytes > Hook.HEADERS_MAX_BYTES) {
            throw new InvalidHookException(Reason.HEADERS_TOO_LARGE,
                    "headers are " + bytes + " UTF-8 bytes; at most " + Hook.HEADERS_MAX_BYTES);
        }
    }

    /** RFC 9110 {@code tchar}. */
    private static boolean tchar(int c) {
        return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
                || "!#$%&'*+-.^_`|~".indexOf(c) >= 0;
    }

    /** RFC 9110 field-value characters as Java's HTTP client sends them: HTAB, SP, VCHAR, obs-text. */
    private static boolean fieldChar(char c) {
        return c == '\t' || c >= 0x20 && c <= 0x7E || c >= 0x80 && c <= 0xFF;
    }

    /** Index of the first unpaired surrogate in {@code s}, or -1. */
    static int unpairedSurrogate(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                return i;
            }
        }
        return -1;
    }

    /** Why {@code s} is not a printable id (tenant, source), if it is not. */
    private static Optional<String> printableProblem(String s) {
        int at = unpairedSurrogate(s);
        if (at >= 0) {
            return Optional.of("is not valid UTF-16: unpaired surrogate at index " + at);
        }
        for (int i = 0; i < s.length(); i = s.offsetByCodePoints(i, 1)) {
            int c = s.codePointAt(i);
            if (!printable(c)) {
                return Optional.of("holds " + String.format(Locale.ROOT, "U+%04X", c) + " at index " + i
                        + "; control, format and line-separator characters are not allowed");
            }
        }
        return Optional.empty();
    }

    /** Not a control (Cc), format (Cf), line or paragraph separator character. */
    private static boolean printable(int c) {
        int type = Character.getType(c);
        return type != Character.CONTROL && type != Character.FORMAT && type != Character.LINE_SEPARATOR
                && type != Character.PARAGRAPH_SEPARATOR;
    }

    /**
     * The UTF-8 length of a string that may hold unpaired surrogates (each counted as the 1 byte '?' it used to
     * become).
     */
    private static int utf8Length(String s) {
        int bytes = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                bytes += 1;
            } else if (c < 0x800) {
                bytes += 2;
            } else if (Character.isHighSurrogate(c) && i + 1 < s.length()
                    && Character.isLowSurrogate(s.charAt(i + 1))) {
                bytes += 4;
                i++;
            } else if (Character.isSurrogate(c)) {
                bytes += 1;
            } else {
                bytes += 3;
            }
        }
        return bytes;
    }

    /** {@code s} with anything but printable ASCII as {@code \\uXXXX}, for a message. */
    private static String escaped(String s) {
        StringBuilder out = new StringBuilder();
        s.chars().forEach(c -> out.append(c >= 0x20 && c < 0x7F
                ? String.valueOf((char) c) : String.format(Locale.ROOT, "\\u%04X", c)));
        return out.toString();
    }
}

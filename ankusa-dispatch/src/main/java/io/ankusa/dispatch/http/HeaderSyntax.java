package io.ankusa.dispatch.http;

/**
 * What HTTP/1.1 allows in a header field (RFC 9110 §5): a name is a token, a value holds visible
 * characters, spaces, tabs and obs-text, never CR, LF or NUL. Checked before sending, so a stored
 * hook cannot split a request or smuggle a header.
 */
final class HeaderSyntax {

    private static final String TOKEN_SYMBOLS = "!#$%&'*+-.^_`|~";

    private HeaderSyntax() {
    }

    /**
     * Checks one header.
     *
     * @throws IllegalArgumentException naming the header (never quoting its value) when it is not valid
     */
    static void requireValid(String name, String value) {
        if (name.isEmpty()) {
            throw new IllegalArgumentException("an empty header name");
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            boolean token = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
                    || TOKEN_SYMBOLS.indexOf(c) >= 0;
            if (!token) {
                throw new IllegalArgumentException("illegal character in header name " + printable(name));
            }
        }
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if ((c < 0x20 && c != '\t') || c == 0x7F || c > 0xFF) {
                throw new IllegalArgumentException("illegal character in the value of header " + name);
            }
        }
    }

    private static String printable(String name) {
        StringBuilder text = new StringBuilder();
        name.chars().forEach(c -> text.append(c >= 0x21 && c < 0x7F
                ? String.valueOf((char) c) : String.format("\\u%04x", c)));
        return text.toString();
    }
}

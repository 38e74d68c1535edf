package io.ankusa.dispatch.http;

import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.Locale;
import java.util.Optional;

/**
 * Reads a URL's host as an address when it is written as one: IPv6 in brackets, and IPv4 in every
 * form the C library's {@code inet_aton} accepts and so a system resolver may honour — one to four
 * parts, each decimal, hexadecimal ({@code 0x…}) or octal (a leading {@code 0}), the last part
 * filling the remaining bytes ({@code 2130706433}, {@code 0x7f000001}, {@code 017700000001},
 * {@code 127.1} are all {@code 127.0.0.1}). Reading them here, rather than leaving them to a
 * resolver, means the guard checks the address the host really denotes.
 */
final class AddressLiterals {

    private AddressLiterals() {
    }

    /**
     * The host of {@code url} as written (without brackets' removal), also when {@link URI#getHost()}
     * gives up on it (it does for {@code 2130706433}); empty when there is none.
     */
    static String host(URI url) {
        if (url.getHost() != null) {
            return url.getHost();
        }
        String authority = url.getRawAuthority();
        if (authority == null) {
            return "";
        }
        String host = authority.substring(authority.lastIndexOf('@') + 1);
        if (host.startsWith("[")) {
            int end = host.indexOf(']');
            return end < 0 ? host : host.substring(0, end + 1);
        }
        int colon = host.lastIndexOf(':');
        return colon < 0 ? host : host.substring(0, colon);
    }

    /**
     * The address {@code host} denotes when it is an address literal; empty for a host name.
     *
     * @throws IllegalArgumentException when {@code host} is numeric but denotes no address
     *                                  ({@code 256.1.1.1}, {@code 99999999999}): ambiguous, refused
     */
    static Optional<InetAddress> parse(String host) {
        String text = host.endsWith(".") ? host.substring(0, host.length() - 1) : host;
        if (text.startsWith("[") && text.endsWith("]")) {
            text = text.substring(1, text.length() - 1);
        }
        if (text.indexOf(':') >= 0) {
            return Optional.of(ipv6(text, host));
        }
        return ipv4(text, host);
    }

    private static InetAddress ipv6(String text, String host) {
        if (text.isEmpty() || !(Character.digit(text.charAt(0), 16) >= 0 || text.charAt(0) == ':')) {
            throw new IllegalArgumentException("not an IPv6 address: " + host);
        }
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            // Only what an IPv6 literal can hold, so that getByName never turns to DNS.
            if (!(Character.digit(c, 16) >= 0 || c == ':' || c == '.' || c == '%'
                    || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))) {
                throw new IllegalArgumentException("not an IPv6 address: " + host);
            }
        }
        try {
            return InetAddress.getByName(text);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("not an IPv6 address: " + host, e);
        }
    }

    private static Optional<InetAddress> ipv4(String text, String host) {
        if (text.isEmpty() || !Character.isDigit(text.charAt(0))) {
            return Optional.empty();
        }
        String[] parts = text.split("\\.", -1);
        if (parts.length > 4) {
            return Optional.empty();
        }
        long[] values = new long[parts.length];
        for (int i = 0; i < parts.length; i++) {
            Long value = number(parts[i]);
            if (value == null) {
                return Optional.empty(); // a host name that starts with a digit, like 1e100.net
            }
            values[i] = value;
        }
        long address = 0;
        for (int i = 0; i < values.length - 1; i++) {
            if (values[i] > 0xFF) {
                throw new IllegalArgumentException("a numeric host that is no IPv4 address: " + host);
            }
            address = address << 8 | values[i];
        }
        int lastBits = 8 * (5 - values.length);
        long last = values[values.length - 1];
        if (last >= 1L << lastBits) {
            throw new IllegalArgumentException("a numeric host that is no IPv4 address: " + host);
        }
        address = address << lastBits | last;
        byte[] bytes = {(byte) (address >>> 24), (byte) (address >>> 16), (byte) (address >>> 8), (byte) address};
        try {
            return Optional.of(InetAddress.getByAddress(bytes));
        } catch (UnknownHostException e) {
            throw new IllegalStateException("four bytes are an IPv4 address", e);
        }
    }

    /** The value of one {@code inet_aton} part, or {@code null} when the part is not a number. */
    private static Long number(String part) {
        String lower = part.toLowerCase(Locale.ROOT);
        int radix = 10;
        String digits = lower;
        if (lower.startsWith("0x")) {
            radix = 16;
            digits = lower.substring(2);
        } else if (lower.length() > 1 && lower.startsWith("0")) {
            radix = 8;
            digits = lower.substring(1);
        }
        if (digits.isEmpty() || digits.length() > 12) {
            return digits.isEmpty() ? null : Long.MAX_VALUE;
        }
        for (int i = 0; i < digits.length(); i++) {
            if (Character.digit(digits.charAt(i), radix) < 0) {
                return null;
            }
        }
        return Long.parseLong(digits, radix);
    }
}

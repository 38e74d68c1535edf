package io.ankusa.dispatch.http;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.util.Arrays;

/**
 * A range of addresses in CIDR form ({@code 10.0.0.0/8}, {@code fc00::/7}; a bare address is a range
 * of one). An IPv4 range also contains the IPv4-mapped IPv6 forms of its addresses.
 */
final class AddressRange {

    private final byte[] network;
    private final int prefix;
    private final String text;

    private AddressRange(byte[] network, int prefix, String text) {
        this.network = network;
        this.prefix = prefix;
        this.text = text;
    }

    /**
     * Reads {@code address/prefix} or a bare address; the address must be a literal.
     *
     * @throws IllegalArgumentException when it is not
     */
    static AddressRange parse(String cidr) {
        String text = cidr.strip();
        int slash = text.indexOf('/');
        String addressText = slash < 0 ? text : text.substring(0, slash);
        InetAddress address = AddressLiterals.parse(addressText)
                .orElseThrow(() -> new IllegalArgumentException("not an address range: " + cidr));
        byte[] bytes = address.getAddress();
        int bits = bytes.length * 8;
        int prefix;
        try {
            prefix = slash < 0 ? bits : Integer.parseInt(text.substring(slash + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not an address range: " + cidr, e);
        }
        if (prefix < 0 || prefix > bits) {
            throw new IllegalArgumentException("prefix out of range in " + cidr);
        }
        return new AddressRange(mask(bytes, prefix), prefix, text);
    }

    /** Whether {@code address} lies in the range. */
    boolean contains(InetAddress address) {
        byte[] bytes = address.getAddress();
        if (network.length == 4 && address instanceof Inet6Address v6) {
            Inet4Address mapped = SpecialAddresses.embeddedIpv4(v6.getAddress());
            if (mapped == null) {
                return false;
            }
            bytes = mapped.getAddress();
        }
        if (bytes.length != network.length) {
            return false;
        }
        return Arrays.equals(mask(bytes, prefix), network);
    }

    private static byte[] mask(byte[] bytes, int prefix) {
        byte[] masked = bytes.clone();
        for (int i = 0; i < masked.length; i++) {
            int keep = Math.max(0, Math.min(8, prefix - 8 * i));
            masked[i] = (byte) (masked[i] & (0xFF << (8 - keep)));
        }
        return masked;
    }

    @Override
    public String toString() {
        return text;
    }
}

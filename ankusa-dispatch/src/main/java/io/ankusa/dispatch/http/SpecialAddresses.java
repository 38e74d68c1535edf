package io.ankusa.dispatch.http;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;

/**
 * The special-purpose address ranges a webhook must not reach (IANA's IPv4 and IPv6
 * special-purpose registries, less the globally reachable ones): what {@link AddressGuard} refuses
 * unless allowed. IPv6 forms that embed an IPv4 address (mapped {@code ::ffff:0:0/96}, compatible
 * {@code ::/96}, NAT64 {@code 64:ff9b::/96}, 6to4 {@code 2002::/16}) are judged by that address.
 */
final class SpecialAddresses {

    /** A refused range and why. */
    private record Refused(AddressRange range, String what) {
    }

    private static final List<Refused> IPV4 = List.of(
            refused("0.0.0.0/8", "an unspecified (this-network) address"),
            refused("10.0.0.0/8", "a private address"),
            refused("100.64.0.0/10", "a shared (CGNAT) address"),
            refused("127.0.0.0/8", "a loopback address"),
            refused("169.254.0.0/16", "a link-local address (cloud metadata lives here)"),
            refused("172.16.0.0/12", "a private address"),
            refused("192.0.0.0/24", "an IETF protocol address"),
            refused("192.0.2.0/24", "a documentation address"),
            refused("192.88.99.0/24", "a 6to4 relay anycast address"),
            refused("192.168.0.0/16", "a private address"),
            refused("198.18.0.0/15", "a benchmarking address"),
            refused("198.51.100.0/24", "a documentation address"),
            refused("203.0.113.0/24", "a documentation address"),
            refused("224.0.0.0/4", "a multicast address"),
            refused("255.255.255.255/32", "the broadcast address"),
            refused("240.0.0.0/4", "a reserved address"));

    private static final List<Refused> IPV6 = List.of(
            refused("::/128", "the unspecified address"),
            refused("::1/128", "a loopback address"),
            refused("100::/64", "a discard-only address"),
            refused("2001:db8::/32", "a documentation address"),
            refused("2001::/23", "an IETF protocol address"),
            refused("fc00::/7", "a unique local (private) address"),
            refused("fe80::/10", "a link-local address"),
            refused("fec0::/10", "a site-local address"),
            refused("ff00::/8", "a multicast address"));

    private SpecialAddresses() {
    }

    /** Why {@code address} is refused, or {@code null} when it is a public unicast address. */
    static String classify(InetAddress address) {
        if (address instanceof Inet6Address v6) {
            Inet4Address embedded = embeddedIpv4(v6.getAddress());
            if (embedded != null) {
                String inner = classify(embedded);
                return inner == null ? null : inner + " (embedded in " + address.getHostAddress() + ")";
            }
        }
        for (Refused refused : address instanceof Inet4Address ? IPV4 : IPV6) {
            if (refused.range().contains(address)) {
                return refused.what();
            }
        }
        return null;
    }

    /** The IPv4 address an IPv6 address carries (mapped, compatible, NAT64, 6to4), or {@code null}. */
    static Inet4Address embeddedIpv4(byte[] v6) {
        boolean zeroTo10 = allZero(v6, 0, 10);
        if (zeroTo10 && (v6[10] & 0xFF) == 0xFF && (v6[11] & 0xFF) == 0xFF) {
            return ipv4(v6, 12); // ::ffff:a.b.c.d, mapped
        }
        if (zeroTo10 && v6[10] == 0 && v6[11] == 0 && !allZero(v6, 12, 15)) {
            return ipv4(v6, 12); // ::a.b.c.d, compatible (:: and ::1 stay IPv6)
        }
        if (v6[0] == 0 && v6[1] == 0x64 && (v6[2] & 0xFF) == 0xFF && (v6[3] & 0xFF) == 0x9B && allZero(v6, 4, 12)) {
            return ipv4(v6, 12); // 64:ff9b::a.b.c.d, NAT64
        }
        if (v6[0] == 0x20 && v6[1] == 0x02) {
            return ipv4(v6, 2); // 2002:aabb:ccdd::, 6to4
        }
        return null;
    }

    private static boolean allZero(byte[] bytes, int from, int to) {
        for (int i = from; i < to; i++) {
            if (bytes[i] != 0) {
                return false;
            }
        }
        return true;
    }

    private static Inet4Address ipv4(byte[] bytes, int offset) {
        byte[] four = {bytes[offset], bytes[offset + 1], bytes[offset + 2], bytes[offset + 3]};
        try {
            return (Inet4Address) InetAddress.getByAddress(four);
        } catch (UnknownHostException e) {
            throw new IllegalStateException("four bytes are an IPv4 address", e);
        }
    }

    private static Refused refused(String cidr, String what) {
        return new Refused(AddressRange.parse(cidr), what);
    }
}

package io.ankusa.dispatch.http;

import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Which addresses the HTTP sink may connect to: the server-side request forgery (SSRF) guard.
 *
 * <p>{@link #publicOnly()}, the default of every {@link WebhookClient}, refuses every address that
 * is not a public unicast address: loopback, private (RFC 1918, IPv6 unique local), link-local
 * (which holds the cloud metadata address {@code 169.254.169.254}), shared address space (CGNAT),
 * multicast, unspecified, broadcast and the other special-purpose ranges, in IPv4 and IPv6 form,
 * including IPv4 addresses embedded in IPv6 (mapped, compatible, NAT64, 6to4); IPv4 literals written
 * the old {@code inet_aton} way ({@code 2130706433}, {@code 0x7f000001}, {@code 017700000001}) are
 * read as the address they denote; and the host names of cloud metadata services
 * ({@code metadata.google.internal}, {@code metadata}, …) and {@code localhost} are refused by
 * name. A host name is refused when <em>any</em> of its addresses is refused.
 *
 * <p>The check happens in the HTTP client's DNS resolver and the client connects to the addresses
 * that resolver returned, so a name cannot resolve to a public address for the check and to a
 * private one for the connection (DNS rebinding). Redirects are never followed.
 *
 * <p>An {@linkplain Builder#allowRange(String) allowed range} or {@linkplain Builder#allowHost(String)
 * allowed host name} lets tests and internal deployments through on purpose. {@link
 * Builder#httpsOnly(boolean)} also refuses plain {@code http} URLs. Immutable and thread-safe.
 */
public final class AddressGuard {

    /** Reason prefix of a delivery refused by the guard: its outcome is a dead letter, never a retry. */
    public static final String SSRF_REFUSED = "ssrf_refused";

    private static final AddressGuard PUBLIC_ONLY = new Builder().build();

    /** Host names of cloud metadata services, refused whatever they resolve to (unless allowed by name). */
    private static final Set<String> METADATA_HOSTS = Set.of(
            "metadata", "metadata.google.internal", "metadata.goog", "instance-data",
            "instance-data.ec2.internal", "metadata.azure.internal", "metadata.oraclecloud.com",
            "metadata.platformequinix.com", "metadata.packet.net", "100-100-100-200.metadata");

    private final List<AddressRange> allowedRanges;
    private final Set<String> allowedHosts;
    private final boolean httpsOnly;

    private AddressGuard(Builder builder) {
        this.allowedRanges = List.copyOf(builder.allowedRanges);
        this.allowedHosts = Set.copyOf(builder.allowedHosts);
        this.httpsOnly = builder.httpsOnly;
    }

    /**
     * The default: public unicast addresses only, {@code http} and {@code https}, nothing allowed on purpose.
     *
     * @return the guard that refuses loopback, private, link-local and other non-public addresses
     */
    public static AddressGuard publicOnly() {
        return PUBLIC_ONLY;
    }

    /**
     * A builder starting from {@link #publicOnly()}.
     *
     * @return a builder that allows what {@link #publicOnly()} allows and nothing more yet
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Whether plain {@code http} URLs are refused.
     *
     * @return {@code true} when only {@code https} URLs pass
     */
    public boolean httpsOnly() {
        return httpsOnly;
    }

    /**
     * Why a URL is refused before any lookup ({@code https}-only, or a host given as an address or a
     * name the guard refuses), or empty when it may go on to resolution.
     */
    Optional<String> refusal(URI url) {
        if (httpsOnly && !"https".equalsIgnoreCase(url.getScheme())) {
            return Optional.of(SSRF_REFUSED + ": only https URLs are allowed, not " + url.getScheme());
        }
        String host = AddressLiterals.host(url);
        if (host.isEmpty()) {
            return Optional.of(SSRF_REFUSED + ": the URL has no host");
        }
        try {
            literal(host);
        } catch (AddressRefusedException e) {
            return Optional.of(e.getMessage());
        }
        return refusedName(host);
    }

    /**
     * Resolves {@code host} and returns its addresses if every one of them is allowed: the
     * addresses the client then connects to.
     *
     * @throws AddressRefusedException when the host or one of its addresses is refused
     * @throws UnknownHostException    when the name does not resolve
     */
    InetAddress[] resolve(String host) throws UnknownHostException {
        Optional<InetAddress> literal = literal(host);
        if (literal.isPresent()) {
            return new InetAddress[] {literal.get()};
        }
        Optional<String> refusedName = refusedName(host);
        if (refusedName.isPresent()) {
            throw new AddressRefusedException(refusedName.get());
        }
        InetAddress[] addresses = InetAddress.getAllByName(host);
        if (!allowedHosts.contains(normalized(host))) {
            for (InetAddress address : addresses) {
                String refused = refusal(address);
                if (refused != null) {
                    throw new AddressRefusedException(SSRF_REFUSED + ": " + host + " resolves to "
                            + address.getHostAddress() + ", " + refused);
                }
            }
        }
        return addresses;
    }

    /**
     * The address a host written as an address literal denotes, checked; empty for a host name.
     *
     * @throws AddressRefusedException when the literal is refused or ambiguous
     */
    private Optional<InetAddress> literal(String host) throws AddressRefusedException {
        Optional<InetAddress> address;
        try {
            address = AddressLiterals.parse(host);
        } catch (IllegalArgumentException e) {
            throw new AddressRefusedException(SSRF_REFUSED + ": " + e.getMessage());
        }
        if (address.isPresent()) {
            String refused = refusal(address.get());
            if (refused != null) {
                throw new AddressRefusedException(SSRF_REFUSED + ": " + host + " is "
                        + address.get().getHostAddress() + ", " + refused);
            }
        }
        return address;
    }

    private Optional<String> refusedName(String host) {
        String name = normalized(host);
        if (allowedHosts.contains(name)) {
            return Optional.empty();
        }
        if (METADATA_HOSTS.contains(name)) {
            return Optional.of(SSRF_REFUSED + ": " + host + " is a cloud metadata host name");
        }
        if (name.equals("localhost") || name.endsWith(".localhost")) {
            return Optional.of(SSRF_REFUSED + ": " + host + " is a loopback host name");
        }
        return Optional.empty();
    }

    /** Why {@code address} is refused, or {@code null} when it is allowed. */
    private String refusal(InetAddress address) {
        for (AddressRange range : allowedRanges) {
            if (range.contains(address)) {
                return null;
            }
        }
        return SpecialAddresses.classify(address);
    }

    private static String normalized(String host) {
        String name = host.toLowerCase(Locale.ROOT);
        return name.endsWith(".") ? name.substring(0, name.length() - 1) : name;
    }

    /** Names the allowances only. */
    @Override
    public String toString() {
        return "AddressGuard[allowedRanges=" + allowedRanges + ", allowedHosts=" + new TreeSet<>(allowedHosts)
                + ", httpsOnly=" + httpsOnly + "]";
    }

    /** Configures an {@link AddressGuard}; starts from {@link #publicOnly()}. */
    public static final class Builder {

        private final List<AddressRange> allowedRanges = new ArrayList<>();
        private final Set<String> allowedHosts = new LinkedHashSet<>();
        private boolean httpsOnly;

        private Builder() {
        }

        /**
         * Allows the addresses in {@code cidr} ({@code 127.0.0.0/8}, {@code ::1/128}, {@code 10.1.2.3}
         * for one address), whatever their kind: for tests against a local server and for internal
         * deployments. An IPv4 range also covers the IPv4-mapped IPv6 forms of its addresses.
         *
         * @param cidr an address range in CIDR notation, or one address
         * @return this builder
         * @throws IllegalArgumentException when {@code cidr} is not an address or a range in CIDR form
         */
        public Builder allowRange(String cidr) {
            allowedRanges.add(AddressRange.parse(Objects.requireNonNull(cidr, "cidr")));
            return this;
        }

        /**
         * Allows the host {@code name} (exactly, case-insensitive), whatever it resolves to; a URL
         * must name it to benefit, an address literal is checked against the ranges only.
         *
         * @param name the host name to allow, compared without regard to case
         * @return this builder
         */
        public Builder allowHost(String name) {
            Objects.requireNonNull(name, "name");
            if (name.isBlank()) {
                throw new IllegalArgumentException("an allowed host name must not be blank");
            }
            allowedHosts.add(normalized(name.strip()));
            return this;
        }

        /**
         * Whether only {@code https} URLs are allowed (default {@code false}).
         *
         * @param only {@code true} to refuse plain {@code http} URLs
         * @return this builder
         */
        public Builder httpsOnly(boolean only) {
            this.httpsOnly = only;
            return this;
        }

        /**
         * The guard.
         *
         * @return a guard allowing the public addresses and everything allowed on this builder
         */
        public AddressGuard build() {
            return new AddressGuard(this);
        }
    }
}

package io.ankusa.admin;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The bearer tokens of producers that post hooks to {@link HookIngestServlet} ({@code POST /v1/hooks}):
 * tokens of their own, apart from the admin API's, each allowed every tenant or only the tenants it
 * names. There is no open default: an edge cannot be built without at least one token.
 *
 * <pre>{@code
 * IngestTokens tokens = IngestTokens.builder()
 *         .anyTenant(System.getenv("ANKUSA_INGEST_TOKEN"))
 *         .tenants(System.getenv("ACME_INGEST_TOKEN"), Set.of("acme"))
 *         .build();
 * }</pre>
 *
 * <p>A token has at least {@value #MIN_TOKEN_CHARS} characters. Every token is compared on each
 * request in constant time, so the time taken does not say which one matched, or how much of one.
 */
public final class IngestTokens {

    /** The shortest token accepted. */
    public static final int MIN_TOKEN_CHARS = 16;

    private record Entry(byte[] token, Predicate<String> tenants) {
    }

    private final List<Entry> entries;

    private IngestTokens(List<Entry> entries) {
        this.entries = List.copyOf(entries);
    }

    /**
     * A builder with no tokens yet.
     *
     * @return the builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /** The tenants {@code token} may post hooks for, or empty for a token it does not know. */
    Optional<Predicate<String>> scope(String token) {
        byte[] given = token.getBytes(StandardCharsets.UTF_8);
        Predicate<String> found = null;
        for (Entry entry : entries) {
            if (MessageDigest.isEqual(entry.token(), given)) {
                found = entry.tenants();
            }
        }
        return Optional.ofNullable(found);
    }

    /** Collects tokens; {@link #build()} needs at least one. Not thread-safe. */
    public static final class Builder {

        private final List<Entry> entries = new ArrayList<>();

        private Builder() {
        }

        /**
         * A token that may post hooks of every tenant.
         *
         * @param token the token, at least {@value IngestTokens#MIN_TOKEN_CHARS} characters
         * @return this builder
         */
        public Builder anyTenant(String token) {
            entries.add(new Entry(checked(token), tenant -> true));
            return this;
        }

        /**
         * A token that may post hooks of {@code tenants} only (a hook without a tenant is filed under
         * {@code "default"}, which must then be named).
         *
         * @param token   the token, at least {@value IngestTokens#MIN_TOKEN_CHARS} characters
         * @param tenants the tenant ids, at least one
         * @return this builder
         */
        public Builder tenants(String token, Set<String> tenants) {
            Set<String> copy = Set.copyOf(tenants);
            if (copy.isEmpty()) {
                throw new IllegalArgumentException("a scoped token names at least one tenant");
            }
            entries.add(new Entry(checked(token), copy::contains));
            return this;
        }

        /**
         * The tokens.
         *
         * @return the tokens
         * @throws IllegalStateException when no token was given
         */
        public IngestTokens build() {
            if (entries.isEmpty()) {
                throw new IllegalStateException("an ingest edge needs a token: there is no open default");
            }
            return new IngestTokens(entries);
        }

        private static byte[] checked(String token) {
            Objects.requireNonNull(token, "token");
            if (token.length() < MIN_TOKEN_CHARS) {
                throw new IllegalArgumentException("a token has at least " + MIN_TOKEN_CHARS + " characters");
            }
            return token.getBytes(StandardCharsets.UTF_8);
        }
    }
}

package io.ankusa.admin;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.Principal;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/** Bearer tokens with their roles ({@link AccessPolicy#tokens}). */
final class TokenPolicy implements AccessPolicy {

    static final int MIN_TOKEN_CHARS = 16;

    private record Entry(byte[] token, TokenPrincipal principal, Role role) {
    }

    /** A token's principal, named after a digest of the token. */
    record TokenPrincipal(String getName) implements Principal {
    }

    private final List<Entry> entries = new ArrayList<>();

    TokenPolicy(Map<String, Role> tokens) {
        if (tokens.isEmpty()) {
            throw new IllegalArgumentException("name at least one token");
        }
        tokens.forEach((token, role) -> {
            Objects.requireNonNull(role, "role");
            if (token.length() < MIN_TOKEN_CHARS) {
                throw new IllegalArgumentException("a token has at least " + MIN_TOKEN_CHARS + " characters");
            }
            byte[] bytes = token.getBytes(StandardCharsets.UTF_8);
            entries.add(new Entry(bytes, new TokenPrincipal("token-" + digest(bytes)), role));
        });
    }

    @Override
    public Optional<Principal> authenticate(String token) {
        byte[] given = token.getBytes(StandardCharsets.UTF_8);
        Principal found = null;
        for (Entry entry : entries) {
            // Every token is compared, so the time taken does not say which one matched.
            if (MessageDigest.isEqual(entry.token(), given)) {
                found = entry.principal();
            }
        }
        return Optional.ofNullable(found);
    }

    @Override
    public Optional<Role> role(Principal principal) {
        for (Entry entry : entries) {
            if (entry.principal().equals(principal)) {
                return Optional.of(entry.role());
            }
        }
        return Optional.empty();
    }

    private static String digest(byte[] token) {
        try {
            byte[] sha = MessageDigest.getInstance("SHA-256").digest(token);
            return HexFormat.of().formatHex(sha, 0, 6);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is not available", e);
        }
    }
}

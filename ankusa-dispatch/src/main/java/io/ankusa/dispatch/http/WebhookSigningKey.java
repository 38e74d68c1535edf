package io.ankusa.dispatch.http;

import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.interfaces.EdECPrivateKey;
import java.security.interfaces.EdECPublicKey;
import java.security.spec.EdECPrivateKeySpec;
import java.security.spec.NamedParameterSpec;
import java.util.Base64;
import java.util.Objects;

/**
 * A Standard Webhooks {@code v1a} signing key: the Ed25519 private key a sender signs with, whose
 * {@linkplain #publicKey() public key} receivers verify with. Unlike a {@link WebhookSecret}, the
 * receiver never holds anything that can sign.
 *
 * <p>Its serialized form is {@code whsk_} followed by the base64 of the 32-byte Ed25519 private key
 * (RFC 8032's seed, not the 64-byte seed-and-public-key form some libraries use), as the
 * specification's reference libraries read it: the Go library's {@code NewWebhookAsymmetric}
 * passes the decoded part after {@code whsk_} to {@code ed25519.NewKeyFromSeed}. The signing is
 * the JDK's {@code Ed25519}. {@link #toString()} never shows the key.
 */
public final class WebhookSigningKey {

    /** The prefix of a serialized signing key. */
    public static final String PREFIX = "whsk_";

    private final byte[] seed;
    private final PrivateKey key;
    private final WebhookPublicKey publicKey;

    private WebhookSigningKey(byte[] seed, WebhookPublicKey publicKey) {
        this.seed = seed;
        this.key = jcaKey(seed);
        this.publicKey = publicKey;
    }

    /**
     * Reads {@code whsk_<base64>}: the base64 part, decoded, is the 32-byte Ed25519 private key.
     *
     * @param serialized the signing key as stored, {@code whsk_<base64>}
     * @return the signing key
     * @throws IllegalArgumentException when the prefix is missing, the rest is not base64 or not 32
     *                                  bytes (the message never quotes the key)
     */
    public static WebhookSigningKey parse(String serialized) {
        Objects.requireNonNull(serialized, "serialized");
        if (!serialized.startsWith(PREFIX)) {
            throw new IllegalArgumentException("a webhook signing key starts with " + PREFIX);
        }
        byte[] seed;
        try {
            seed = Base64.getDecoder().decode(serialized.substring(PREFIX.length()));
        } catch (IllegalArgumentException e) {
            // The decoder's message quotes the offending character: do not pass it on.
            throw new IllegalArgumentException("the part after " + PREFIX + " is not base64");
        }
        if (seed.length != Ed25519Points.BYTES) {
            throw new IllegalArgumentException("a webhook signing key has " + Ed25519Points.BYTES
                    + " bytes, this one has " + seed.length);
        }
        return new WebhookSigningKey(seed, WebhookPublicKey.ofEncoded(Ed25519Points.publicKeyOf(seed)));
    }

    /**
     * A new random signing key, from the JDK's {@code Ed25519} key pair generator.
     *
     * @return a fresh signing key
     */
    public static WebhookSigningKey generate() {
        KeyPair pair;
        try {
            pair = KeyPairGenerator.getInstance(WebhookPublicKey.ED25519).generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("Ed25519 is not available", e);
        }
        byte[] seed = ((EdECPrivateKey) pair.getPrivate()).getBytes()
                .orElseThrow(() -> new IllegalStateException("the Ed25519 provider does not show its private key"));
        byte[] encoded = Ed25519Points.encode(((EdECPublicKey) pair.getPublic()).getPoint());
        return new WebhookSigningKey(seed, WebhookPublicKey.ofEncoded(encoded));
    }

    /**
     * The public key receivers verify this key's signatures with.
     *
     * @return the matching public key
     */
    public WebhookPublicKey publicKey() {
        return publicKey;
    }

    /**
     * The serialized form, {@code whsk_<base64>}, to store (it signs: keep it as secret as a
     * {@code whsec_} secret, and give receivers only the {@link #publicKey()}).
     *
     * @return the key in its stored form
     */
    public String serialized() {
        return PREFIX + Base64.getEncoder().encodeToString(seed);
    }

    /** The key as the JCA takes it. */
    PrivateKey privateKey() {
        return key;
    }

    private static PrivateKey jcaKey(byte[] seed) {
        try {
            return KeyFactory.getInstance(WebhookPublicKey.ED25519)
                    .generatePrivate(new EdECPrivateKeySpec(NamedParameterSpec.ED25519, seed));
        } catch (GeneralSecurityException e) {
            // Every Java platform since 15 provides Ed25519, and any 32 bytes are a private key.
            throw new IllegalStateException("Ed25519 is not available", e);
        }
    }

    /** The public key only; never the signing key. */
    @Override
    public String toString() {
        return "WebhookSigningKey[public " + publicKey.serialized() + "]";
    }
}

package io.ankusa.dispatch.http;

import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PublicKey;
import java.security.Signature;
import java.security.spec.EdECPoint;
import java.security.spec.EdECPublicKeySpec;
import java.security.spec.NamedParameterSpec;
import java.util.Arrays;
import java.util.Base64;
import java.util.Objects;

/**
 * A Standard Webhooks {@code v1a} public key: the Ed25519 key a receiver checks {@code v1a,}
 * signatures with. It is not a secret; hand it to receivers as they need it.
 *
 * <p>Its serialized form is {@code whpk_} followed by the base64 of the 32-byte public key as
 * RFC 8032 encodes it, as the specification's reference libraries read it (the Go library's
 * {@code NewWebhookAsymmetric} decodes the part after {@code whpk_} straight into an
 * {@code ed25519.PublicKey}). {@link WebhookSigningKey#publicKey()} gives the one matching a
 * signing key. Equal when the key bytes are.
 */
public final class WebhookPublicKey {

    /** The prefix of a serialized public key. */
    public static final String PREFIX = "whpk_";

    static final String ED25519 = "Ed25519";

    private final byte[] encoded;
    private final PublicKey key;

    private WebhookPublicKey(byte[] encoded, EdECPoint point) {
        this.encoded = encoded;
        this.key = jcaKey(point);
    }

    /**
     * Reads {@code whpk_<base64>}: the base64 part, decoded, is the 32-byte Ed25519 public key.
     *
     * @param serialized the public key as a sender published it, {@code whpk_<base64>}
     * @return the public key
     * @throws IllegalArgumentException when the prefix is missing, the rest is not base64, not 32
     *                                  bytes or not a point of the curve
     */
    public static WebhookPublicKey parse(String serialized) {
        Objects.requireNonNull(serialized, "serialized");
        if (!serialized.startsWith(PREFIX)) {
            throw new IllegalArgumentException("a webhook public key starts with " + PREFIX);
        }
        byte[] encoded;
        try {
            encoded = Base64.getDecoder().decode(serialized.substring(PREFIX.length()));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("the part after " + PREFIX + " is not base64");
        }
        return ofEncoded(encoded);
    }

    /** The public key encoded as {@code encoded} (RFC 8032's 32 bytes; not copied, so pass a fresh array). */
    static WebhookPublicKey ofEncoded(byte[] encoded) {
        if (encoded.length != Ed25519Points.BYTES) {
            throw new IllegalArgumentException("a webhook public key has " + Ed25519Points.BYTES
                    + " bytes, this one has " + encoded.length);
        }
        EdECPoint point = Ed25519Points.decode(encoded);
        if (point == null) {
            throw new IllegalArgumentException("a webhook public key must be a point of Ed25519");
        }
        return new WebhookPublicKey(encoded, point);
    }

    /**
     * The serialized form, {@code whpk_<base64>}, to hand to receivers.
     *
     * @return the key in the form receivers are given
     */
    public String serialized() {
        return PREFIX + Base64.getEncoder().encodeToString(encoded);
    }

    /** Whether {@code signature} is this key's Ed25519 signature of {@code content}. */
    boolean verifies(byte[] content, byte[] signature) {
        try {
            Signature verifier = Signature.getInstance(ED25519);
            verifier.initVerify(key);
            verifier.update(content);
            return verifier.verify(signature);
        } catch (java.security.SignatureException e) {
            // A signature of the wrong length or shape: not this key's.
            return false;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("Ed25519 is not available", e);
        }
    }

    private static PublicKey jcaKey(EdECPoint point) {
        try {
            return KeyFactory.getInstance(ED25519)
                    .generatePublic(new EdECPublicKeySpec(NamedParameterSpec.ED25519, point));
        } catch (GeneralSecurityException e) {
            // Every Java platform since 15 provides Ed25519, and the point was checked.
            throw new IllegalStateException("Ed25519 is not available", e);
        }
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof WebhookPublicKey that && Arrays.equals(encoded, that.encoded);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(encoded);
    }

    /** The serialized form: a public key is no secret. */
    @Override
    public String toString() {
        return "WebhookPublicKey[" + serialized() + "]";
    }
}

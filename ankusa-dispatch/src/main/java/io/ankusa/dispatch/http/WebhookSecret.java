package io.ankusa.dispatch.http;

import java.security.SecureRandom;
import java.util.Base64;
import java.util.Objects;
import javax.crypto.spec.SecretKeySpec;

/**
 * A Standard Webhooks signing secret: the HMAC-SHA256 key shared with the receiver.
 *
 * <p>Its serialized form is {@code whsec_} followed by the key in base64, as the specification
 * presents secrets to consumers; {@link #ofBytes(byte[])} takes the key itself. The specification
 * asks for 24 to 64 random bytes, and so does this class. {@link #toString()} never shows the key.
 */
public final class WebhookSecret {

    /** The prefix of a serialized secret. */
    public static final String PREFIX = "whsec_";

    /** The shortest key accepted, in bytes (192 bits, the specification's minimum). */
    public static final int MIN_BYTES = 24;

    /** The longest key accepted, in bytes (512 bits, the specification's maximum). */
    public static final int MAX_BYTES = 64;

    private static final String HMAC_SHA256 = "HmacSHA256";

    private final byte[] key;

    private WebhookSecret(byte[] key) {
        if (key.length < MIN_BYTES || key.length > MAX_BYTES) {
            throw new IllegalArgumentException("a webhook secret has " + MIN_BYTES + " to " + MAX_BYTES
                    + " bytes, this one has " + key.length);
        }
        this.key = key;
    }

    /**
     * Reads {@code whsec_<base64>}: the base64 part, decoded, is the key.
     *
     * @param serialized the secret as the receiver was given it, {@code whsec_<base64>}
     * @return the secret
     * @throws IllegalArgumentException when the prefix is missing, the rest is not base64 or the
     *                                  key's length is out of range (the message never quotes the secret)
     */
    public static WebhookSecret parse(String serialized) {
        Objects.requireNonNull(serialized, "serialized");
        if (!serialized.startsWith(PREFIX)) {
            throw new IllegalArgumentException("a webhook secret starts with " + PREFIX);
        }
        byte[] key;
        try {
            key = Base64.getDecoder().decode(serialized.substring(PREFIX.length()));
        } catch (IllegalArgumentException e) {
            // The decoder's message quotes the offending character: do not pass it on.
            throw new IllegalArgumentException("the part after " + PREFIX + " is not base64");
        }
        return new WebhookSecret(key);
    }

    /** The length of a {@linkplain #generate() generated} key, in bytes (256 bits). */
    public static final int GENERATED_BYTES = 32;

    private static final SecureRandom RANDOM = new SecureRandom();

    /**
     * A new random secret: {@value #GENERATED_BYTES} bytes from {@link SecureRandom}.
     *
     * @return a fresh secret
     */
    public static WebhookSecret generate() {
        byte[] key = new byte[GENERATED_BYTES];
        RANDOM.nextBytes(key);
        return new WebhookSecret(key);
    }

    /**
     * The secret whose key is {@code key} (copied).
     *
     * @param key the key bytes
     * @return the secret
     */
    public static WebhookSecret ofBytes(byte[] key) {
        return new WebhookSecret(key.clone());
    }

    /**
     * The serialized form, {@code whsec_<base64>}, to hand to the receiver.
     *
     * @return the secret in the form receivers are given
     */
    public String serialized() {
        return PREFIX + Base64.getEncoder().encodeToString(key);
    }

    /** The key as the JCA takes it. */
    SecretKeySpec hmacKey() {
        return new SecretKeySpec(key, HMAC_SHA256);
    }

    /** The key's length only. */
    @Override
    public String toString() {
        return "WebhookSecret[" + key.length + " bytes]";
    }
}

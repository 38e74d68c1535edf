package io.ankusa.dispatch.http;

import java.nio.charset.StandardCharsets;
import java.io.ByteArrayOutputStream;
import java.security.GeneralSecurityException;
import java.security.Signature;
import java.util.Base64;
import java.util.List;
import java.util.StringJoiner;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Computes the Standard Webhooks symmetric signature: {@code v1,} followed by the base64 of
 * HMAC-SHA256(key, {@code id + "." + timestamp + "." + payload}), the timestamp in decimal unix
 * seconds; with several secrets (rotation), one such signature per secret, space-separated, in
 * the secrets' order. The asymmetric signature is {@code v1a,} followed by the base64 of the
 * Ed25519 signature of the same content with a {@link WebhookSigningKey}, one per key, after the
 * {@code v1,} ones. Thread-safe: each signature uses its own {@link Mac} or {@link Signature}.
 */
final class WebhookSigner {

    private static final byte DOT = '.';

    private WebhookSigner() {
    }

    /** The {@code webhook-signature} header value: one {@code v1,} signature per secret. */
    static String sign(List<WebhookSecret> secrets, String id, long timestampSeconds, byte[] payload) {
        StringJoiner header = new StringJoiner(" ");
        for (WebhookSecret secret : secrets) {
            header.add(sign(secret, id, timestampSeconds, payload));
        }
        return header.toString();
    }

    /**
     * The {@code webhook-signature} header value: one {@code v1,} signature per secret, then one
     * {@code v1a,} signature per signing key, space-separated.
     */
    static String sign(List<WebhookSecret> secrets, List<WebhookSigningKey> keys, String id, long timestampSeconds,
            byte[] payload) {
        StringJoiner header = new StringJoiner(" ");
        if (!secrets.isEmpty()) {
            header.add(sign(secrets, id, timestampSeconds, payload));
        }
        if (!keys.isEmpty()) {
            byte[] content = content(id, Long.toString(timestampSeconds), payload);
            for (WebhookSigningKey key : keys) {
                header.add(sign(key, content));
            }
        }
        return header.toString();
    }

    /** One {@code v1a,} signature of {@code id.timestamp.payload}. */
    static String sign(WebhookSigningKey key, String id, long timestampSeconds, byte[] payload) {
        return sign(key, content(id, Long.toString(timestampSeconds), payload));
    }

    private static String sign(WebhookSigningKey key, byte[] content) {
        try {
            Signature signature = Signature.getInstance(WebhookPublicKey.ED25519);
            signature.initSign(key.privateKey());
            signature.update(content);
            return "v1a," + Base64.getEncoder().encodeToString(signature.sign());
        } catch (GeneralSecurityException e) {
            // Every Java platform since 15 provides Ed25519, and the key was made by its key factory.
            throw new IllegalStateException("Ed25519 is not available", e);
        }
    }

    /** The signed content, {@code id.timestamp.payload}, as bytes. */
    static byte[] content(String id, String timestamp, byte[] payload) {
        ByteArrayOutputStream content =
                new ByteArrayOutputStream(payload.length + id.length() + timestamp.length() + 2);
        content.writeBytes(id.getBytes(StandardCharsets.UTF_8));
        content.write(DOT);
        content.writeBytes(timestamp.getBytes(StandardCharsets.UTF_8));
        content.write(DOT);
        content.writeBytes(payload);
        return content.toByteArray();
    }

    /** One {@code v1,} signature. */
    static String sign(WebhookSecret secret, String id, long timestampSeconds, byte[] payload) {
        return "v1," + Base64.getEncoder().encodeToString(hmac(secret, id, Long.toString(timestampSeconds), payload));
    }

    /** The raw HMAC of {@code id.timestamp.payload}. */
    static byte[] hmac(WebhookSecret secret, String id, String timestamp, byte[] payload) {
        SecretKeySpec key = secret.hmacKey();
        Mac mac = newMac(key);
        mac.update(id.getBytes(StandardCharsets.UTF_8));
        mac.update(DOT);
        mac.update(timestamp.getBytes(StandardCharsets.UTF_8));
        mac.update(DOT);
        mac.update(payload);
        return mac.doFinal();
    }

    private static Mac newMac(SecretKeySpec key) {
        try {
            Mac mac = Mac.getInstance(key.getAlgorithm());
            mac.init(key);
            return mac;
        } catch (GeneralSecurityException e) {
            // Every Java platform must provide HmacSHA256, and the key spec matches it.
            throw new IllegalStateException("HmacSHA256 is not available", e);
        }
    }
}

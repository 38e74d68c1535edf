package io.ankusa.dispatch.http;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Base64;
import java.util.List;
import java.util.StringJoiner;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Computes the Standard Webhooks symmetric signature: {@code v1,} followed by the base64 of
 * HMAC-SHA256(key, {@code id + "." + timestamp + "." + payload}), the timestamp in decimal unix
 * seconds; with several secrets (rotation), one such signature per secret, space-separated, in
 * the secrets' order. Thread-safe: each signature uses its own {@link Mac}.
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

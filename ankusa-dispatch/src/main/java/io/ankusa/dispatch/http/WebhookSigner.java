package io.ankusa.dispatch.http;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Computes the Standard Webhooks symmetric signature: {@code v1,} followed by the base64 of
 * HMAC-SHA256(key, {@code id + "." + timestamp + "." + payload}), the timestamp in decimal unix
 * seconds. Thread-safe: each signature uses its own {@link Mac}.
 */
final class WebhookSigner {

    private static final byte DOT = '.';

    private final SecretKeySpec key;

    WebhookSigner(WebhookSecret secret) {
        this.key = secret.hmacKey();
    }

    /** The {@code webhook-signature} header value. */
    String sign(String id, long timestampSeconds, byte[] payload) {
        Mac mac = newMac();
        mac.update(id.getBytes(StandardCharsets.UTF_8));
        mac.update(DOT);
        mac.update(Long.toString(timestampSeconds).getBytes(StandardCharsets.US_ASCII));
        mac.update(DOT);
        mac.update(payload);
        return "v1," + Base64.getEncoder().encodeToString(mac.doFinal());
    }

    private Mac newMac() {
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

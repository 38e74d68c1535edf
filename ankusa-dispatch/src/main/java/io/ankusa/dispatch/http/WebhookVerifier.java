package io.ankusa.dispatch.http;

import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * Checks a Standard Webhooks request on the receiving side: the timestamp lies within the
 * tolerance of the receiver's clock (5 minutes either way by default) and at least one of the
 * space-separated signatures verifies: a symmetric {@code v1,} signature matching one of the
 * receiver's secrets (several while a secret rotates), or an asymmetric {@code v1a,} (Ed25519)
 * signature made by the signing key of one of the receiver's public keys. A {@code v1,} entry is
 * only ever checked against secrets and a {@code v1a,} entry only against public keys; other
 * versions are skipped. Symmetric signatures are compared in constant time. Thread-safe.
 *
 * <pre>{@code
 * WebhookVerifier verifier = WebhookVerifier.of(WebhookSecret.parse(System.getenv("WEBHOOK_SECRET")));
 * verifier.verify(request.headers(), request.body());  // throws WebhookVerificationException
 *
 * WebhookVerifier asymmetric = WebhookVerifier.of(WebhookPublicKey.parse(System.getenv("WEBHOOK_PUBLIC_KEY")));
 * }</pre>
 */
public final class WebhookVerifier {

    /** The default tolerance between the sender's timestamp and the receiver's clock. */
    public static final Duration DEFAULT_TOLERANCE = Duration.ofMinutes(5);

    private static final String V1 = "v1,";
    private static final String V1A = "v1a,";
    private static final byte[] NONE = new byte[0];

    private final List<WebhookSecret> secrets;
    private final List<WebhookPublicKey> publicKeys;
    private final Duration tolerance;
    private final InstantSource clock;

    private WebhookVerifier(List<WebhookSecret> secrets, List<WebhookPublicKey> publicKeys, Duration tolerance,
            InstantSource clock) {
        this.secrets = List.copyOf(secrets);
        this.publicKeys = List.copyOf(publicKeys);
        if (this.secrets.isEmpty() && this.publicKeys.isEmpty()) {
            throw new IllegalArgumentException("a verifier needs at least one secret or public key");
        }
        this.tolerance = tolerance;
        this.clock = clock;
    }

    /**
     * A verifier accepting a signature by any of {@code secrets}, with the default tolerance and the system clock.
     *
     * @param secrets the secrets a valid signature may be made with; at least one
     * @return the verifier
     */
    public static WebhookVerifier of(WebhookSecret... secrets) {
        return new WebhookVerifier(List.of(secrets), List.of(), DEFAULT_TOLERANCE, InstantSource.system());
    }

    /**
     * A verifier accepting a {@code v1a} signature by the signing key of any of {@code keys}, with the
     * default tolerance and the system clock.
     *
     * @param keys the public keys of the signing keys a valid signature may be made with; at least one
     * @return the verifier
     */
    public static WebhookVerifier of(WebhookPublicKey... keys) {
        return new WebhookVerifier(List.of(), List.of(keys), DEFAULT_TOLERANCE, InstantSource.system());
    }

    /**
     * This verifier accepting {@code v1a} signatures by the signing keys of {@code keys} (instead of
     * the public keys it had), besides {@code v1} signatures by its secrets: for a sender that signs
     * both ways while its receivers move from one to the other.
     *
     * @param keys the public keys to accept {@code v1a} signatures of; may be empty if there are secrets
     * @return a copy of this verifier with those public keys
     */
    public WebhookVerifier withPublicKeys(List<WebhookPublicKey> keys) {
        return new WebhookVerifier(secrets, keys, tolerance, clock);
    }

    /**
     * This verifier with another tolerance (not negative).
     *
     * @param window how far a request's timestamp may be from now
     * @return a copy of this verifier with that tolerance
     */
    public WebhookVerifier withTolerance(Duration window) {
        Objects.requireNonNull(window, "window");
        if (window.isNegative()) {
            throw new IllegalArgumentException("tolerance must not be negative: " + window);
        }
        return new WebhookVerifier(secrets, publicKeys, window, clock);
    }

    /**
     * This verifier reading the time from {@code source}.
     *
     * @param source the clock to check timestamps against
     * @return a copy of this verifier with that clock
     */
    public WebhookVerifier withClock(InstantSource source) {
        return new WebhookVerifier(secrets, publicKeys, tolerance, Objects.requireNonNull(source, "source"));
    }

    /**
     * Verifies a request given its headers (names in any case; a list-valued map's first value)
     * and its body as received.
     *
     * @param headers the request's headers, by name
     * @param payload the request's body, byte for byte as received
     * @throws WebhookVerificationException when it does not verify, with the reason
     */
    public void verify(Map<String, ?> headers, byte[] payload) {
        verify(header(headers, "webhook-id"), header(headers, "webhook-timestamp"),
                header(headers, "webhook-signature"), payload);
    }

    /**
     * Verifies a request given its three headers' values and its body as received.
     *
     * @param id         the {@code webhook-id} header's value
     * @param timestamp  the {@code webhook-timestamp} header's value
     * @param signatures the {@code webhook-signature} header's value (one or more signatures)
     * @param payload    the request's body, byte for byte as received
     * @throws WebhookVerificationException when it does not verify, with the reason
     */
    public void verify(String id, String timestamp, String signatures, byte[] payload) {
        if (id == null || timestamp == null || signatures == null) {
            throw new WebhookVerificationException(WebhookVerificationException.Reason.MISSING_HEADER,
                    "webhook-id, webhook-timestamp and webhook-signature are all required");
        }
        Objects.requireNonNull(payload, "payload");
        long seconds;
        try {
            seconds = Long.parseLong(timestamp.strip());
        } catch (NumberFormatException e) {
            throw new WebhookVerificationException(WebhookVerificationException.Reason.INVALID_TIMESTAMP,
                    "webhook-timestamp is not unix seconds");
        }
        Instant now = clock.instant();
        if (seconds < now.minus(tolerance).getEpochSecond()) {
            throw new WebhookVerificationException(WebhookVerificationException.Reason.TIMESTAMP_TOO_OLD,
                    "webhook-timestamp is older than " + tolerance);
        }
        if (seconds > now.plus(tolerance).getEpochSecond()) {
            throw new WebhookVerificationException(WebhookVerificationException.Reason.TIMESTAMP_TOO_NEW,
                    "webhook-timestamp is more than " + tolerance + " ahead");
        }
        String[] entries = signatures.split(" ");
        if (matchesSecret(entries, id, timestamp, payload) || matchesPublicKey(entries, id, timestamp, payload)) {
            return;
        }
        throw new WebhookVerificationException(WebhookVerificationException.Reason.NO_MATCHING_SIGNATURE,
                "no v1 signature matches a secret and no v1a signature a public key");
    }

    private boolean matchesSecret(String[] entries, String id, String timestamp, byte[] payload) {
        for (WebhookSecret secret : secrets) {
            byte[] expected = WebhookSigner.hmac(secret, id, timestamp, payload);
            for (String entry : entries) {
                byte[] given = decoded(entry, V1);
                if (given.length > 0 && MessageDigest.isEqual(expected, given)) {
                    return true;
                }
            }
        }
        return false;
    }

    private boolean matchesPublicKey(String[] entries, String id, String timestamp, byte[] payload) {
        if (publicKeys.isEmpty()) {
            return false;
        }
        byte[] content = WebhookSigner.content(id, timestamp, payload);
        for (String entry : entries) {
            byte[] given = decoded(entry, V1A);
            if (given.length == 0) {
                continue;
            }
            for (WebhookPublicKey key : publicKeys) {
                if (key.verifies(content, given)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** The signature bytes of an entry of version {@code prefix}; none for another version or bad base64. */
    private static byte[] decoded(String entry, String prefix) {
        if (!entry.startsWith(prefix)) {
            return NONE;
        }
        try {
            return Base64.getDecoder().decode(entry.substring(prefix.length()));
        } catch (IllegalArgumentException e) {
            return NONE;
        }
    }

    private static String header(Map<String, ?> headers, String name) {
        for (Map.Entry<String, ?> header : headers.entrySet()) {
            if (header.getKey() != null && header.getKey().toLowerCase(Locale.ROOT).equals(name)) {
                Object value = header.getValue();
                if (value instanceof List<?> values) {
                    return values.isEmpty() ? null : String.valueOf(values.get(0));
                }
                return value == null ? null : value.toString();
            }
        }
        return null;
    }

    /** The number of secrets and public keys and the tolerance; never a secret. */
    @Override
    public String toString() {
        return "WebhookVerifier[" + secrets.size() + " secret(s), " + publicKeys.size() + " public key(s), tolerance="
                + tolerance + "]";
    }
}

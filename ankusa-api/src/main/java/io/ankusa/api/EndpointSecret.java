package io.ankusa.api;

import java.util.Objects;

/**
 * One signing secret of a registered endpoint, in the form its receiver is given
 * ({@code whsec_<base64>}), and when it stops signing. {@link #toString()} never shows the secret.
 *
 * @param secret    the serialized secret, {@code whsec_<base64>}
 * @param expiresAt when it stops signing, epoch milliseconds by the queue's clock; 0 while it has no end
 */
public record EndpointSecret(String secret, long expiresAt) {

    /**
     * Checks the form and the time.
     *
     * @param secret see the record's description
     * @param expiresAt see the record's description
     */
    public EndpointSecret {
        Objects.requireNonNull(secret, "secret");
        if (!secret.startsWith("whsec_") || secret.length() <= "whsec_".length()) {
            throw new IllegalArgumentException("a webhook secret starts with whsec_");
        }
        if (expiresAt < 0) {
            throw new IllegalArgumentException("expiresAt must not be negative: " + expiresAt);
        }
    }

    /**
     * Whether the secret still signs at {@code nowMillis}.
     *
     * @param nowMillis the queue clock's time, epoch milliseconds
     * @return {@code true} when it has no end or its end is later than {@code nowMillis}
     */
    public boolean signsAt(long nowMillis) {
        return expiresAt == 0 || nowMillis < expiresAt;
    }

    /** The end only; never the secret. */
    @Override
    public String toString() {
        return "EndpointSecret[expiresAt=" + expiresAt + "]";
    }
}

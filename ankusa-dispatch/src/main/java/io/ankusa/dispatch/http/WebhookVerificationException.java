package io.ankusa.dispatch.http;

import java.util.Objects;

/** A webhook request that did not verify, and why (see {@link #reason()}); the message never quotes a secret. */
public final class WebhookVerificationException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** Why a request did not verify. */
    public enum Reason {
        /** {@code webhook-id}, {@code webhook-timestamp} or {@code webhook-signature} is absent. */
        MISSING_HEADER,
        /** {@code webhook-timestamp} is not a number of unix seconds. */
        INVALID_TIMESTAMP,
        /** The timestamp is older than the tolerance allows (a replay, or a clock far behind). */
        TIMESTAMP_TOO_OLD,
        /** The timestamp is further ahead than the tolerance allows. */
        TIMESTAMP_TOO_NEW,
        /**
         * No {@code v1,} signature matches any of the secrets and no {@code v1a,} signature verifies
         * with any of the public keys: wrong secret or key, or a tampered request.
         */
        NO_MATCHING_SIGNATURE
    }

    /** Why the request did not verify. */
    private final Reason reason;

    WebhookVerificationException(Reason reason, String message) {
        super(Objects.requireNonNull(reason, "reason") + ": " + message);
        this.reason = reason;
    }

    /**
     * Why the request did not verify.
     *
     * @return the check that failed
     */
    public Reason reason() {
        return reason;
    }
}

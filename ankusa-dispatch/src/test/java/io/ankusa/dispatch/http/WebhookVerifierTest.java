package io.ankusa.dispatch.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ankusa.dispatch.http.WebhookVerificationException.Reason;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@link WebhookVerifier} against the Standard Webhooks specification's published vectors: the
 * reference libraries' tests (libraries/java/src/test/java/com/standardwebhooks/WebhookTest.java
 * in github.com/standard-webhooks/standard-webhooks) sign id {@code msg_p5jXN8AQM9LWM0D4loKWxJek},
 * payload {@code {"test": 2432232314}} with secret {@code whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw}
 * at 1614265330 as {@code v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=}, and list which headers
 * must be refused.
 */
class WebhookVerifierTest {

    private static final WebhookSecret SECRET = WebhookSecret.parse("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw");
    private static final String ID = "msg_p5jXN8AQM9LWM0D4loKWxJek";
    private static final String TIMESTAMP = "1614265330";
    private static final Instant SENT = Instant.ofEpochSecond(1_614_265_330L);
    private static final byte[] PAYLOAD = "{\"test\": 2432232314}".getBytes(StandardCharsets.UTF_8);
    private static final String SIGNATURE = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=";

    private final WebhookVerifier verifier = WebhookVerifier.of(SECRET).withClock(InstantSource.fixed(SENT));

    @Test
    void acceptsTheSpecificationVectorAndAHeaderWithSeveralSignatures() {
        assertThatCode(() -> verifier.verify(ID, TIMESTAMP, SIGNATURE, PAYLOAD)).doesNotThrowAnyException();
        String several = String.join(" ", "v1,Ceo5qEr07ixe2NLpvHk3FH9bwy/WavXrAFQ/9tdO6mc=",
                "v2,Ceo5qEr07ixe2NLpvHk3FH9bwy/WavXrAFQ/9tdO6mc=", SIGNATURE, "v1,Ceo5qEr07ixe2NLpvHk3FH9bwy/WavXrAFQ/9tdO6mc=");
        assertThatCode(() -> verifier.verify(ID, TIMESTAMP, several, PAYLOAD)).doesNotThrowAnyException();
        assertThatCode(() -> verifier.verify(Map.of("Webhook-Id", List.of(ID), "webhook-timestamp", List.of(TIMESTAMP),
                "WEBHOOK-SIGNATURE", List.of(SIGNATURE)), PAYLOAD)).doesNotThrowAnyException();
    }

    @Test
    void acceptsWithinTheToleranceAndRefusesAnExpiredOrFutureTimestamp() {
        WebhookVerifier late = WebhookVerifier.of(SECRET).withClock(InstantSource.fixed(SENT.plusSeconds(300)));
        assertThatCode(() -> late.verify(ID, TIMESTAMP, SIGNATURE, PAYLOAD)).doesNotThrowAnyException();
        assertReason(() -> WebhookVerifier.of(SECRET).withClock(InstantSource.fixed(SENT.plusSeconds(301)))
                .verify(ID, TIMESTAMP, SIGNATURE, PAYLOAD), Reason.TIMESTAMP_TOO_OLD);
        assertReason(() -> WebhookVerifier.of(SECRET).withClock(InstantSource.fixed(SENT.minusSeconds(301)))
                .verify(ID, TIMESTAMP, SIGNATURE, PAYLOAD), Reason.TIMESTAMP_TOO_NEW);
        assertReason(() -> verifier.verify(ID, "soon", SIGNATURE, PAYLOAD), Reason.INVALID_TIMESTAMP);
    }

    @Test
    void refusesATamperedRequestAWrongSecretAndTheSpecificationBadSignatures() {
        assertReason(() -> verifier.verify(ID, TIMESTAMP, SIGNATURE, "{\"test\": 2432232315}".getBytes(StandardCharsets.UTF_8)),
                Reason.NO_MATCHING_SIGNATURE);
        assertReason(() -> verifier.verify("msg_other", TIMESTAMP, SIGNATURE, PAYLOAD), Reason.NO_MATCHING_SIGNATURE);
        assertReason(() -> WebhookVerifier.of(WebhookSecret.generate()).withClock(InstantSource.fixed(SENT))
                .verify(ID, TIMESTAMP, SIGNATURE, PAYLOAD), Reason.NO_MATCHING_SIGNATURE);
        for (String bad : List.of("v2,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=", "invalid_signature", "v1,invalid_signature", "")) {
            assertReason(() -> verifier.verify(ID, TIMESTAMP, bad, PAYLOAD), Reason.NO_MATCHING_SIGNATURE);
        }
        assertReason(() -> verifier.verify(Map.of("webhook-id", ID, "webhook-signature", SIGNATURE), PAYLOAD),
                Reason.MISSING_HEADER);
    }

    @Test
    void aRotatedSecretSignsWithBothAndEachSecretVerifies() {
        WebhookSecret next = WebhookSecret.generate();
        String header = WebhookSigner.sign(List.of(SECRET, next), ID, 1_614_265_330L, PAYLOAD);

        assertThat(header.split(" ")).hasSize(2).startsWith(SIGNATURE);
        assertThatCode(() -> WebhookVerifier.of(next).withClock(InstantSource.fixed(SENT)).verify(ID, TIMESTAMP, header, PAYLOAD))
                .doesNotThrowAnyException();
        assertThatCode(() -> verifier.verify(ID, TIMESTAMP, header, PAYLOAD)).doesNotThrowAnyException();
    }

    @Test
    void aGeneratedSecretIs32RandomBytesInTheWhsecForm() {
        WebhookSecret one = WebhookSecret.generate();
        assertThat(one.serialized()).startsWith("whsec_");
        assertThat(WebhookSecret.parse(one.serialized())).hasToString("WebhookSecret[32 bytes]");
        assertThat(one.serialized()).isNotEqualTo(WebhookSecret.generate().serialized());
    }

    @Test
    void theReferenceV1aVectorVerifiesWithThePublicKeyWithinTheSameTolerance() {
        WebhookVerifier asymmetric = WebhookVerifier.of(WebhookSigningKeyTest.VECTOR_KEY.publicKey())
                .withClock(InstantSource.fixed(SENT));
        String vector = WebhookSigningKeyTest.VECTOR_SIGNATURE;

        assertThatCode(() -> asymmetric.verify(ID, TIMESTAMP, vector, PAYLOAD)).doesNotThrowAnyException();
        assertThatCode(() -> asymmetric.verify(ID, TIMESTAMP, SIGNATURE + " " + vector, PAYLOAD))
                .doesNotThrowAnyException();
        assertReason(() -> asymmetric.withClock(InstantSource.fixed(SENT.plusSeconds(301)))
                .verify(ID, TIMESTAMP, vector, PAYLOAD), Reason.TIMESTAMP_TOO_OLD);
        assertReason(() -> asymmetric.withClock(InstantSource.fixed(SENT.minusSeconds(301)))
                .verify(ID, TIMESTAMP, vector, PAYLOAD), Reason.TIMESTAMP_TOO_NEW);
        assertReason(() -> asymmetric.verify(ID, TIMESTAMP, vector, "{\"test\": 2432232315}".getBytes(StandardCharsets.UTF_8)),
                Reason.NO_MATCHING_SIGNATURE);
        assertReason(() -> WebhookVerifier.of(WebhookSigningKey.generate().publicKey()).withClock(InstantSource.fixed(SENT))
                .verify(ID, TIMESTAMP, vector, PAYLOAD), Reason.NO_MATCHING_SIGNATURE);
        for (String bad : List.of("v1a,", "v1a,invalid_signature", "v1a,Ceo5qEr07ixe2NLpvHk3FH9bwy/WavXrAFQ/9tdO6mc=",
                "v1b," + vector.substring(4))) {
            assertReason(() -> asymmetric.verify(ID, TIMESTAMP, bad, PAYLOAD), Reason.NO_MATCHING_SIGNATURE);
        }
    }

    @Test
    void aV1EntryIsNeverCheckedAgainstAPublicKeyNorAV1aEntryAgainstASecret() {
        WebhookVerifier asymmetric = WebhookVerifier.of(WebhookSigningKeyTest.VECTOR_KEY.publicKey())
                .withClock(InstantSource.fixed(SENT));
        String vector = WebhookSigningKeyTest.VECTOR_SIGNATURE;

        assertReason(() -> asymmetric.verify(ID, TIMESTAMP, SIGNATURE, PAYLOAD), Reason.NO_MATCHING_SIGNATURE);
        // The same Ed25519 signature under the v1 label: only a secret could match it, and none does.
        assertReason(() -> asymmetric.verify(ID, TIMESTAMP, "v1," + vector.substring(4), PAYLOAD),
                Reason.NO_MATCHING_SIGNATURE);
        assertReason(() -> verifier.verify(ID, TIMESTAMP, vector, PAYLOAD), Reason.NO_MATCHING_SIGNATURE);
        assertReason(() -> verifier.verify(ID, TIMESTAMP, "v1a," + SIGNATURE.substring(3), PAYLOAD),
                Reason.NO_MATCHING_SIGNATURE);

        WebhookVerifier both = verifier.withPublicKeys(List.of(WebhookSigningKeyTest.VECTOR_KEY.publicKey()));
        assertThatCode(() -> both.verify(ID, TIMESTAMP, SIGNATURE, PAYLOAD)).doesNotThrowAnyException();
        assertThatCode(() -> both.verify(ID, TIMESTAMP, vector, PAYLOAD)).doesNotThrowAnyException();
        assertThatThrownBy(() -> WebhookVerifier.of(new WebhookPublicKey[0])).isInstanceOf(IllegalArgumentException.class);
    }

    private static void assertReason(Runnable verification, Reason reason) {
        assertThatThrownBy(verification::run).isInstanceOfSatisfying(WebhookVerificationException.class,
                e -> assertThat(e.reason()).isEqualTo(reason));
    }
}

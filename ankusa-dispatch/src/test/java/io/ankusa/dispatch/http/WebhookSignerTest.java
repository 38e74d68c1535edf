package io.ankusa.dispatch.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class WebhookSignerTest {

    /**
     * The Standard Webhooks known answer: the reference libraries' own test, for example
     * {@code libraries/java/src/test/java/com/standardwebhooks/WebhookTest.java#verifyWebhookSignWorks}
     * in github.com/standard-webhooks/standard-webhooks. A round trip through our own verifier
     * could not catch a wrong delimiter, alphabet or key decoding; this can.
     */
    @Test
    void signsTheSpecificationExampleExactly() {
        var secret = WebhookSecret.parse("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw");

        String signature = WebhookSigner.sign(secret, "msg_p5jXN8AQM9LWM0D4loKWxJek", 1_614_265_330L,
                "{\"test\": 2432232314}".getBytes(StandardCharsets.UTF_8));

        assertThat(signature).isEqualTo("v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
    }

    @Test
    void everySignedPartChangesTheSignature() {
        var secret = WebhookSecret.parse("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw");
        byte[] payload = "{}".getBytes(StandardCharsets.UTF_8);
        String base = WebhookSigner.sign(secret, "msg_1", 1_700_000_000L, payload);

        assertThat(WebhookSigner.sign(secret, "msg_2", 1_700_000_000L, payload)).isNotEqualTo(base);
        assertThat(WebhookSigner.sign(secret, "msg_1", 1_700_000_001L, payload)).isNotEqualTo(base);
        assertThat(WebhookSigner.sign(secret, "msg_1", 1_700_000_000L, "{ }".getBytes(StandardCharsets.UTF_8))).isNotEqualTo(base);
        assertThat(WebhookSigner.sign(WebhookSecret.ofBytes(new byte[24]), "msg_1", 1_700_000_000L, payload))
                .isNotEqualTo(base);
    }

    @Test
    void aRotatedSecretSignsWithBoth() {
        var old = WebhookSecret.parse("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw");
        var next = WebhookSecret.generate();
        byte[] payload = "{\"test\": 2432232314}".getBytes(StandardCharsets.UTF_8);

        String header = WebhookSigner.sign(java.util.List.of(old, next), "msg_p5jXN8AQM9LWM0D4loKWxJek", 1_614_265_330L, payload);

        assertThat(header.split(" ")).containsExactly(
                "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=",
                WebhookSigner.sign(next, "msg_p5jXN8AQM9LWM0D4loKWxJek", 1_614_265_330L, payload));
    }
}

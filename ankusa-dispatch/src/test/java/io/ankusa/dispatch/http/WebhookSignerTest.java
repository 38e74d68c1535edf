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
    void signs_the_specification_example_exactly() {
        var signer = new WebhookSigner(WebhookSecret.parse("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"));

        String signature = signer.sign("msg_p5jXN8AQM9LWM0D4loKWxJek", 1_614_265_330L,
                "{\"test\": 2432232314}".getBytes(StandardCharsets.UTF_8));

        assertThat(signature).isEqualTo("v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
    }

    @Test
    void every_signed_part_changes_the_signature() {
        var signer = new WebhookSigner(WebhookSecret.parse("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"));
        byte[] payload = "{}".getBytes(StandardCharsets.UTF_8);
        String base = signer.sign("msg_1", 1_700_000_000L, payload);

        assertThat(signer.sign("msg_2", 1_700_000_000L, payload)).isNotEqualTo(base);
        assertThat(signer.sign("msg_1", 1_700_000_001L, payload)).isNotEqualTo(base);
        assertThat(signer.sign("msg_1", 1_700_000_000L, "{ }".getBytes(StandardCharsets.UTF_8))).isNotEqualTo(base);
        assertThat(new WebhookSigner(WebhookSecret.ofBytes(new byte[24])).sign("msg_1", 1_700_000_000L, payload))
                .isNotEqualTo(base);
    }
}

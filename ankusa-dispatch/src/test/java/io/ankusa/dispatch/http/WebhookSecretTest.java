package io.ankusa.dispatch.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class WebhookSecretTest {

    private static final String SPEC_EXAMPLE = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";

    @Test
    void parsesTheSerializedFormAndWritesItBack() {
        WebhookSecret secret = WebhookSecret.parse(SPEC_EXAMPLE);

        assertThat(secret.serialized()).isEqualTo(SPEC_EXAMPLE);
        assertThat(secret.hmacKey().getEncoded()).hasSize(24);
    }

    @Test
    void rawBytesGiveTheSameKeyAsTheirSerializedForm() {
        byte[] key = "0123456789abcdef01234567".getBytes(StandardCharsets.US_ASCII);
        WebhookSecret raw = WebhookSecret.ofBytes(key);
        Arrays.fill(key, (byte) 0);

        assertThat(WebhookSecret.parse(raw.serialized()).hmacKey()).isEqualTo(raw.hmacKey());
        assertThat(raw.hmacKey().getEncoded()).asString(StandardCharsets.US_ASCII).isEqualTo("0123456789abcdef01234567");
    }

    @Test
    void refusesAMissingPrefixBadBase64AndKeysOutOfRangeWithoutQuotingTheSecret() {
        assertThatThrownBy(() -> WebhookSecret.parse("MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("whsec_")
                .hasMessageNotContaining("MfKQ9r8");
        assertThatThrownBy(() -> WebhookSecret.parse("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaS!"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("base64")
                .hasMessageNotContaining("MfKQ9r8").hasMessageNotContaining("!");
        assertThatThrownBy(() -> WebhookSecret.ofBytes(new byte[23]))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("23");
        assertThatThrownBy(() -> WebhookSecret.ofBytes(new byte[65]))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("65");
        assertThat(WebhookSecret.ofBytes(new byte[64])).isNotNull();
    }

    @Test
    void toStringNeverShowsTheKey() {
        assertThat(WebhookSecret.parse(SPEC_EXAMPLE).toString())
                .isEqualTo("WebhookSecret[24 bytes]")
                .doesNotContain("MfKQ9r8");
    }
}

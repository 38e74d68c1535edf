package io.ankusa.dispatch.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.security.KeyFactory;
import java.security.PublicKey;
import java.security.Signature;
import java.security.spec.X509EncodedKeySpec;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link WebhookSigningKey} and {@link WebhookPublicKey} against the Standard Webhooks reference
 * libraries' {@code v1a} vector: {@code libraries/go/webhook_asymmetric_test.go#TestAsymmetricWebhookSign}
 * in github.com/standard-webhooks/standard-webhooks signs id {@code msg_p5jXN8AQM9LWM0D4loKWxJek},
 * payload {@code {"test": 2432232314}} at 1614265330 with the 32-byte private key whose base64 is
 * {@code VEVTVFNJR05JTkdLRVlET05PVFVTRVRISVNGT1JBTlk=} (an Ed25519 seed, read with
 * {@code ed25519.NewKeyFromSeed}). Public keys are checked against the JDK's own key pairs and
 * its X.509 decoding, which share nothing with the derivation under test.
 */
class WebhookSigningKeyTest {

    static final WebhookSigningKey VECTOR_KEY = WebhookSigningKey.parse("whsk_VEVTVFNJR05JTkdLRVlET05PVFVTRVRISVNGT1JBTlk=");
    static final String ID = "msg_p5jXN8AQM9LWM0D4loKWxJek";
    static final byte[] PAYLOAD = "{\"test\": 2432232314}".getBytes(StandardCharsets.UTF_8);
    static final String VECTOR_SIGNATURE =
            "v1a,tQ9V2XOqn7jL/DQenEFpqIugdBVtiMmER5mhSkXBNwM0mkATuDe6KYYUuxqtaiHeYGb7KaaBRdM5WqyeFiL8Ag==";

    /** The DER prefix of an X.509 SubjectPublicKeyInfo for Ed25519 (RFC 8410): the raw key follows. */
    private static final byte[] X509_PREFIX = HexFormat.of().parseHex("302a300506032b6570032100");

    @Test
    void signsTheReferenceLibraryVectorExactly() {
        assertThat(WebhookSigner.sign(VECTOR_KEY, ID, 1_614_265_330L, PAYLOAD)).isEqualTo(VECTOR_SIGNATURE);
    }

    @Test
    void theDerivedPublicKeyVerifiesTheVectorWithTheJdkAlone() throws Exception {
        Signature verifier = Signature.getInstance("Ed25519");
        verifier.initVerify(jdkPublicKey(VECTOR_KEY.publicKey()));
        verifier.update((ID + ".1614265330.").getBytes(StandardCharsets.UTF_8));
        verifier.update(PAYLOAD);

        assertThat(verifier.verify(Base64.getDecoder().decode(VECTOR_SIGNATURE.substring(4)))).isTrue();
    }

    @Test
    void aParsedKeyHasThePublicKeyTheJdkGeneratedWithIt() {
        for (int i = 0; i < 20; i++) {
            WebhookSigningKey generated = WebhookSigningKey.generate();

            WebhookSigningKey parsed = WebhookSigningKey.parse(generated.serialized());

            assertThat(parsed.publicKey()).isEqualTo(generated.publicKey());
            assertThat(parsed.serialized()).isEqualTo(generated.serialized());
        }
    }

    @Test
    void keysRoundTripThroughTheirSerializedForms() {
        WebhookSigningKey key = WebhookSigningKey.generate();
        String secret = key.serialized();
        String published = key.publicKey().serialized();

        assertThat(secret).startsWith("whsk_");
        assertThat(Base64.getDecoder().decode(secret.substring(5))).hasSize(32);
        assertThat(published).startsWith("whpk_");
        assertThat(Base64.getDecoder().decode(published.substring(5))).hasSize(32);
        assertThat(WebhookPublicKey.parse(published)).isEqualTo(key.publicKey()).hasSameHashCodeAs(key.publicKey());
        assertThat(WebhookPublicKey.parse(published).serialized()).isEqualTo(published);
        assertThat(WebhookSigningKey.parse(secret).serialized()).isEqualTo(secret);
        assertThat(key.toString()).doesNotContain(secret.substring(5)).contains(published);
        assertThat(WebhookSigningKey.generate().serialized()).isNotEqualTo(secret);
    }

    @Test
    void malformedKeysAreRefusedWithoutQuotingThem() {
        List<String> signingKeys = List.of("VEVTVFNJR05JTkdLRVlET05PVFVTRVRISVNGT1JBTlk=",
                "whsec_VEVTVFNJR05JTkdLRVlET05PVFVTRVRISVNGT1JBTlk=", "whsk_VEVTVFNJR05J*kdLRVlET05PVFVTRVRISVNGT1JBTlk=",
                "whsk_" + Base64.getEncoder().encodeToString(new byte[31]),
                "whsk_" + Base64.getEncoder().encodeToString(new byte[64]), "whsk_");
        for (String bad : signingKeys) {
            assertThatThrownBy(() -> WebhookSigningKey.parse(bad)).isExactlyInstanceOf(IllegalArgumentException.class)
                    .message().doesNotContain(bad).doesNotContain("VEVTVFNJR05J");
        }
        byte[] notCanonical = new byte[32];
        java.util.Arrays.fill(notCanonical, (byte) 0xFF);
        notCanonical[31] = 0x7F;   // y = 2^255 - 1, not below p
        byte[] notAPoint = new byte[32];
        notAPoint[0] = 2;           // y = 2: (y² - 1) / (d y² + 1) is not a square modulo p
        List<String> publicKeys = List.of(VECTOR_KEY.serialized(), "whpk_%%%",
                "whpk_" + Base64.getEncoder().encodeToString(new byte[33]),
                "whpk_" + Base64.getEncoder().encodeToString(notCanonical),
                "whpk_" + Base64.getEncoder().encodeToString(notAPoint));
        for (String bad : publicKeys) {
            assertThatThrownBy(() -> WebhookPublicKey.parse(bad)).isExactlyInstanceOf(IllegalArgumentException.class);
        }
    }

    /** The JDK's own decoding of a raw Ed25519 public key, through X.509. */
    private static PublicKey jdkPublicKey(WebhookPublicKey key) throws Exception {
        byte[] raw = Base64.getDecoder().decode(key.serialized().substring(5));
        byte[] der = new byte[X509_PREFIX.length + raw.length];
        System.arraycopy(X509_PREFIX, 0, der, 0, X509_PREFIX.length);
        System.arraycopy(raw, 0, der, X509_PREFIX.length, raw.length);
        return KeyFactory.getInstance("Ed25519").generatePublic(new X509EncodedKeySpec(der));
    }
}

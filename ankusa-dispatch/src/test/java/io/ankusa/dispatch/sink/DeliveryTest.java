package io.ankusa.dispatch.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DeliveryTest {

    private static final Instant INGESTED = Instant.parse("2026-01-02T03:04:05Z");
    private static final Instant ATTEMPTED = Instant.parse("2026-01-02T03:04:09Z");

    static Delivery delivery(Map<String, String> headers, byte[] payload) {
        return new Delivery("msg_1", "src", "acme", 7, 1, headers, payload, INGESTED, ATTEMPTED);
    }

    @Test
    void thePayloadIsCopiedInAndOut() {
        byte[] payload = "hello".getBytes(StandardCharsets.UTF_8);
        Delivery delivery = delivery(Map.of(), payload);

        payload[0] = 'J';
        byte[] out = delivery.payload();
        out[1] = 'E';

        assertThat(delivery.payload()).asString(StandardCharsets.UTF_8).isEqualTo("hello");
        assertThat(delivery.payloadSize()).isEqualTo(5);
    }

    @Test
    void headersKeepTheirOrderAndCannotChange() {
        var headers = new LinkedHashMap<String, String>();
        headers.put("X-Zulu", "1");
        headers.put("Authorization", "Bearer s3cr3t");
        headers.put("X-Alpha", "2");
        Delivery delivery = delivery(headers, new byte[0]);

        headers.put("X-Later", "3");

        assertThat(delivery.headers().keySet()).containsExactly("X-Zulu", "Authorization", "X-Alpha");
        assertThatThrownBy(() -> delivery.headers().put("X-Other", "4"))
                .isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void thePayloadBufferIsAReadOnlyViewOfThePayload() {
        Delivery delivery = delivery(Map.of(), "hello".getBytes(StandardCharsets.UTF_8));
        java.nio.ByteBuffer view = delivery.payloadBuffer();
        assertThat(view.isReadOnly()).isTrue();
        assertThat(view.remaining()).isEqualTo(5);
        assertThat(StandardCharsets.UTF_8.decode(view).toString()).isEqualTo("hello");
        assertThat(delivery.payloadBuffer().position()).as("each call a fresh view").isZero();
    }

    @Test
    void equalityComparesThePayloadByContent() {
        Delivery one = delivery(Map.of("a", "1"), new byte[] {1, 2, 3});
        Delivery same = delivery(Map.of("a", "1"), new byte[] {1, 2, 3});
        Delivery otherPayload = delivery(Map.of("a", "1"), new byte[] {1, 2, 4});
        Delivery otherAttempt = new Delivery("msg_1", "src", "acme", 7, 2, Map.of("a", "1"),
                new byte[] {1, 2, 3}, INGESTED, ATTEMPTED);

        assertThat(one).isEqualTo(same).hasSameHashCodeAs(same);
        assertThat(one).isNotEqualTo(otherPayload).isNotEqualTo(otherAttempt);
    }

    @Test
    void toStringShowsNeitherPayloadNorHeaderValues() {
        Delivery delivery = delivery(Map.of("Authorization", "Bearer s3cr3t"),
                "{\"card\":\"4111\"}".getBytes(StandardCharsets.UTF_8));

        assertThat(delivery.toString())
                .contains("msg_1", "acme", "sink=7", "Authorization", "15 bytes")
                .doesNotContain("s3cr3t", "4111");
    }

    @Test
    void sinkNumbersAreUnsigned16BitAndAttempts1Based() {
        assertThat(new Delivery("h", "s", "t", 0xFFFF, 1, Map.of(), new byte[0], INGESTED, ATTEMPTED).sink())
                .isEqualTo(65_535);
        assertThatThrownBy(() -> new Delivery("h", "s", "t", 0x10000, 1, Map.of(), new byte[0], INGESTED, ATTEMPTED))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("sink");
        assertThatThrownBy(() -> new Delivery("h", "s", "t", -1, 1, Map.of(), new byte[0], INGESTED, ATTEMPTED))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("sink");
        assertThatThrownBy(() -> new Delivery("h", "s", "t", 0, 0, Map.of(), new byte[0], INGESTED, ATTEMPTED))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("attempt");
        assertThatThrownBy(() -> new Delivery("", "s", "t", 0, 1, Map.of(), new byte[0], INGESTED, ATTEMPTED))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("hookId");
    }

    @Test
    void aHeaderWithoutAValueIsRefused() {
        var headers = new HashMap<String, String>();
        headers.put("X-Empty", null);

        assertThatThrownBy(() -> delivery(headers, new byte[0]))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("X-Empty");
    }
}

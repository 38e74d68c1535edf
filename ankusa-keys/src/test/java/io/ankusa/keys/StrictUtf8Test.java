package io.ankusa.keys;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Strings become key bytes strictly: two different strings never become one key. */
class StrictUtf8Test {

    @ParameterizedTest
    @ValueSource(strings = {"x\uD800", "x\uDC00", "\uDC00\uD800"})
    void aStringThatIsNotValidUtf16NeverBecomesKeyBytes(String bad) {
        assertThatThrownBy(() -> StrictUtf8.encode("tenant id", bad)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("tenant id is not valid UTF-16");
        assertThat(TenantIds.problem(bad)).hasValueSatisfying(p -> assertThat(p).contains("not valid UTF-16"));
        assertThatThrownBy(() -> new OrdByTenantKey(bad)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new DedupeKey("t", bad)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> TenantByOrdKey.value(bad)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void validTextEncodesAsUtf8AndMalformedBytesDoNotDecode() throws Exception {
        String text = "caf\u00e9 \uD83D\uDE00";
        byte[] bytes = StrictUtf8.encode("text", text);
        assertThat(bytes).isEqualTo(text.getBytes(StandardCharsets.UTF_8));
        assertThat(StrictUtf8.decode(bytes, 0, bytes.length)).isEqualTo(text);
        assertThatThrownBy(() -> StrictUtf8.decode(new byte[] {'a', (byte) 0xC3, 'b'}, 0, 3))
                .isInstanceOf(CharacterCodingException.class);
    }
}

package io.ankusa.cli.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The --json writer: structure, and escapes that keep any Java string valid JSON. */
class JsonTest {

    @Test
    void writesNestedObjectsAndArraysWithCommasBetweenMembersOnly() {
        String text = new Json().beginObject()
                .member("a", 1)
                .name("b").beginArray().value("x").value(2).nullValue().beginObject().endObject().endArray()
                .member("c", (String) null)
                .endObject().text();

        assertThat(text).isEqualTo("{\"a\":1,\"b\":[\"x\",2,null,{}],\"c\":null}");
    }

    @Test
    void escapesQuotesBackslashesAndControlCharacters() {
        assertThat(Json.quoted("say \"hi\" \\ bye")).isEqualTo("\"say \\\"hi\\\" \\\\ bye\"");
        assertThat(Json.quoted("a\nb\r\tc\b\f")).isEqualTo("\"a\\nb\\r\\tc\\b\\f\"");
        assertThat(Json.quoted("\u0000\u001b[31m\u007f\u0085")).isEqualTo("\"\\u0000\\u001b[31m\\u007f\\u0085\"");
        assertThat(Json.quoted("x\u2028y\u2029")).isEqualTo("\"x\\u2028y\\u2029\"");
    }

    @Test
    void keepsPrintableUnicodeAndPairedSurrogatesButEscapesLoneOnes() {
        assertThat(Json.quoted("café 租户 \uD83D\uDE00")).isEqualTo("\"café 租户 \uD83D\uDE00\"");
        assertThat(Json.quoted("\uD83Dx")).isEqualTo("\"\\ud83dx\"");
        assertThat(Json.quoted("x\uDE00")).isEqualTo("\"x\\ude00\"");
        assertThat(Json.quoted("\uDE00\uD83D")).isEqualTo("\"\\ude00\\ud83d\"");
    }

    @Test
    void refusesTextThatWouldNotBeJson() {
        assertThatThrownBy(() -> new Json().beginObject().value("no name")).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> new Json().beginArray().name("a")).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> new Json().beginArray().endObject()).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> new Json().beginObject().text()).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> new Json().value(1).value(2)).isInstanceOf(IllegalStateException.class);
    }
}

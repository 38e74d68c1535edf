package io.ankusa.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The columns a hook's sinks and headers are written to, and the table names spliced into SQL. */
class OutboxRowTest {

    @Test
    void headersRoundTripInOrderWithColonsAndSpacesInTheirValues() {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("content-type", "application/json; charset=utf-8");
        headers.put("x-trace", " leading space: and a colon\tand a tab");
        headers.put("x-empty", "");
        headers.put("x-latin", "caf\u00e9");
        String text = OutboxRow.encodeHeaders(headers);
        assertThat(OutboxRow.decodeHeaders(text)).containsExactlyEntriesOf(headers);
        assertThat(OutboxRow.decodeHeaders(OutboxRow.encodeHeaders(Map.of()))).isEmpty();
    }

    @Test
    void sinksRoundTripInOrder() {
        assertThat(OutboxRow.decodeSinks(OutboxRow.encodeSinks(List.of(7, 0, 65535)))).containsExactly(7, 0, 65535);
        assertThat(OutboxRow.encodeSinks(List.of(0, 3))).isEqualTo("0,3");
    }

    @Test
    void aHeaderLineWithoutItsSeparatorDoesNotDecode() {
        assertThatThrownBy(() -> OutboxRow.decodeHeaders("no-separator")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void onlyPlainLowerCaseIdentifiersAreTableNames() {
        assertThat(OutboxRow.checkTable("ankusa_outbox")).isEqualTo("ankusa_outbox");
        for (String bad : List.of("", "Outbox", "1outbox", "out-box", "outbox;drop", "a".repeat(52), "outbox\u00e9")) {
            assertThatThrownBy(() -> OutboxRow.checkTable(bad)).as(bad).isInstanceOf(IllegalArgumentException.class);
        }
    }

    @Test
    void theSchemasNameTheirTablesAfterTheOutbox() {
        for (OutboxDialect dialect : OutboxDialect.values()) {
            List<String> statements = dialect.schema("shop_outbox");
            assertThat(statements).as(dialect.name()).hasSize(3);
            assertThat(statements.get(0)).startsWith("CREATE TABLE IF NOT EXISTS shop_outbox (");
            assertThat(statements.get(1)).startsWith("CREATE TABLE IF NOT EXISTS shop_outbox_refused (");
            assertThat(statements.get(2)).startsWith("CREATE TABLE IF NOT EXISTS shop_outbox_gaps (");
            assertThat(String.join("\n", statements)).doesNotContain("${table}").doesNotContain(";");
        }
    }
}

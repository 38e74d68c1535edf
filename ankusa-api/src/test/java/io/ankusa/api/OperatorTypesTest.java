package io.ankusa.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class OperatorTypesTest {

    @Test
    void aCursorTokenRoundTripsAndGarbageIsRefused() {
        DeadLetterCursor cursor = new DeadLetterCursor(1_767_225_600_000L, 42, 65535);
        assertThat(cursor.token()).isEqualTo("1767225600000-42-65535");
        assertThat(DeadLetterCursor.parse(cursor.token())).isEqualTo(cursor);
        for (String bad : List.of("", "1-2", "1-2-3-4", "a-2-3", "-1-2-3", "1-2-65536")) {
            assertThatThrownBy(() -> DeadLetterCursor.parse(bad)).as(bad).isInstanceOf(IllegalArgumentException.class);
        }
    }

    @Test
    void aPageWithMoreContinuesAfterItsLastLetter() {
        DeadLetter newer = new DeadLetter("t", "s", "h2", 2, 0, Instant.ofEpochMilli(2000), 3, "HTTP 410");
        DeadLetter older = new DeadLetter("t", "s", "h1", 1, 7, Instant.ofEpochMilli(1000), 1, "HTTP 410");
        assertThat(new DeadLetterPage(List.of(newer, older), true).next()).hasValue(new DeadLetterCursor(1000, 1, 7));
        assertThat(new DeadLetterPage(List.of(newer, older), false).next()).isEmpty();
        assertThatThrownBy(() -> new DeadLetterPage(List.of(), true)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void queriesAreImmutableAndChecked() {
        DeadLetterQuery all = DeadLetterQuery.all();
        assertThat(all.tenants()).isEmpty();
        assertThat(all.cursor()).isEmpty();
        assertThat(all.limit()).isEqualTo(DeadLetterQuery.DEFAULT_LIMIT);
        DeadLetterQuery next = all.limit(5).after(new DeadLetterCursor(1, 2, 3));
        assertThat(all.limit()).isEqualTo(DeadLetterQuery.DEFAULT_LIMIT);
        assertThat(next.limit()).isEqualTo(5);
        assertThat(next.cursor()).hasValue(new DeadLetterCursor(1, 2, 3));
        assertThat(DeadLetterQuery.tenants("b", "a", "b").tenants()).containsExactly("b", "a");
        assertThatThrownBy(() -> DeadLetterQuery.tenants(List.of())).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> all.limit(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> all.limit(DeadLetterQuery.MAX_LIMIT + 1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void auditEntriesKeepTheirCountsInOrderAndActionsHaveStableCodes() {
        Map<String, Long> counts = new LinkedHashMap<>();
        counts.put("pending", 3L);
        counts.put("dead", 1L);
        AuditEntry entry = new AuditEntry(1, Instant.EPOCH, AuditAction.PURGE, "t", counts);
        counts.put("later", 9L);
        assertThat(entry.counts()).containsExactly(Map.entry("pending", 3L), Map.entry("dead", 1L));
        for (AuditAction action : AuditAction.values()) {
            assertThat(AuditAction.ofCode(action.code())).isEqualTo(action);
        }
        assertThatThrownBy(() -> AuditAction.ofCode("obliterate")).isInstanceOf(IllegalArgumentException.class);
        assertThat(new PurgeResult("t", 1, 2, 3, 40).deliveries()).isEqualTo(6);
        assertThat(PurgeResult.none("t").deliveries()).isZero();
    }

    @Test
    void anAuditEntryNamesItsActorOrNone() {
        assertThat(new AuditEntry(1, Instant.EPOCH, AuditAction.ERASE, "t", Map.of()).actor()).isEmpty();
        assertThat(new AuditEntry(1, Instant.EPOCH, AuditAction.ERASE, "t", Map.of(), Optional.of("ops:ann")).actor())
                .hasValue("ops:ann");
        assertThat(AuditEntry.requireActor("a".repeat(AuditEntry.MAX_ACTOR_LENGTH))).hasSize(256);
        for (String bad : List.of("", "  ", "a".repeat(AuditEntry.MAX_ACTOR_LENGTH + 1), "ann\nforged")) {
            assertThatThrownBy(() -> AuditEntry.requireActor(bad)).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> new AuditEntry(1, Instant.EPOCH, AuditAction.ERASE, "t", Map.of(),
                    Optional.of(bad))).isInstanceOf(IllegalArgumentException.class);
        }
    }

    @Test
    void idempotencyKeysAreOneTo255Utf8Bytes() {
        Hook.Builder b = Hook.builder().id("i").sourceId("s").sinks(0);
        assertThat(b.idempotencyKey("é".repeat(127)).build().idempotencyKey()).hasValue("é".repeat(127));
        assertThatThrownBy(() -> b.idempotencyKey("é".repeat(128)).build())
                .isInstanceOfSatisfying(InvalidHookException.class,
                        e -> assertThat(e.reason()).isEqualTo(InvalidHookException.Reason.IDEMPOTENCY_KEY_TOO_LONG));
        assertThatThrownBy(() -> b.idempotencyKey("").build())
                .isInstanceOfSatisfying(InvalidHookException.class,
                        e -> assertThat(e.reason()).isEqualTo(InvalidHookException.Reason.IDEMPOTENCY_KEY_EMPTY));
    }

    @Test
    void operatorSettingsHaveDefaultsAndRanges() {
        QueueConfig config = QueueConfig.builder(Path.of("x")).build();
        assertThat(config.dedupeWindow()).isEqualTo(Duration.ofHours(24));
        assertThat(config.auditRetention()).isEqualTo(Duration.ofDays(90));
        assertThat(config.housekeepingInterval()).isEqualTo(Duration.ofSeconds(1));
        assertThat(QueueConfig.builder(Path.of("x")).housekeepingInterval(Duration.ZERO).build().housekeepingInterval()).isZero();
        assertThatThrownBy(() -> QueueConfig.builder(Path.of("x")).dedupeWindow(Duration.ZERO).build())
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> QueueConfig.builder(Path.of("x")).auditRetention(Duration.ofMillis(-1)).build())
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> QueueConfig.builder(Path.of("x")).housekeepingInterval(Duration.ofSeconds(-1)).build())
                .isInstanceOf(IllegalArgumentException.class);
    }
}

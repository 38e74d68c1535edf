package io.ankusa.dispatch.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.queue.ledger.TenantDirectory;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class TenantNamesTest {

    /** A directory that counts its name reads. */
    private static final class CountingDirectory implements TenantDirectory {
        final Map<Long, String> names = new HashMap<>();
        int reads;
        final List<Collection<Long>> batches = new ArrayList<>();

        @Override
        public OptionalLong ord(String tenant) {
            return OptionalLong.empty();
        }

        @Override
        public Optional<String> name(long ord) {
            reads++;
            return Optional.ofNullable(names.get(ord));
        }

        @Override
        public Map<Long, String> names(Collection<Long> ords) {
            batches.add(List.copyOf(ords));
            Map<Long, String> out = new HashMap<>();
            ords.forEach(ord -> Optional.ofNullable(names.get(ord)).ifPresent(n -> out.put(ord, n)));
            return out;
        }
    }

    @Test
    void aFeedPageReadsTheNamesItDoesNotKeepInOneRead() {
        CountingDirectory directory = new CountingDirectory();
        for (long ord = 1; ord <= 5; ord++) {
            directory.names.put(ord, "t" + ord);
        }
        TenantNames names = new TenantNames(directory);
        assertThat(names.name(2)).contains("t2");

        names.prefetch(List.of(1L, 2L, 3L, 9L));

        assertThat(directory.batches).as("one read, of the names not kept").containsExactly(List.of(1L, 3L, 9L));
        for (long ord : new long[] {1, 2, 3}) {
            assertThat(names.name(ord)).contains("t" + ord);
        }
        assertThat(directory.reads).as("single reads: the first name(2) only").isEqualTo(1);
        names.prefetch(List.of(1L, 3L));
        assertThat(directory.batches).as("nothing left to read").hasSize(1);
        assertThat(names.name(9)).as("an ordinal without a name is asked again").isEmpty();
        assertThat(directory.reads).isEqualTo(2);
    }

    @Test
    void aTenantNameIsReadOnceHoweverOftenTheTenantComesBack() {
        CountingDirectory directory = new CountingDirectory();
        directory.names.put(7L, "acme");
        TenantNames names = new TenantNames(directory);
        for (int visit = 0; visit < 5; visit++) {
            assertThat(names.name(7)).contains("acme");
        }
        assertThat(directory.reads).isEqualTo(1);
        assertThat(names.reads()).isEqualTo(1);
    }

    @Test
    void anOrdinalWithoutANameIsAskedAgain() {
        CountingDirectory directory = new CountingDirectory();
        TenantNames names = new TenantNames(directory);
        assertThat(names.name(9)).isEmpty();
        directory.names.put(9L, "late");
        assertThat(names.name(9)).contains("late");
        assertThat(directory.reads).isEqualTo(2);
    }

    @Test
    void theCacheKeepsAtMostItsCapacityEvictingTheLeastRecentlyUsed() {
        CountingDirectory directory = new CountingDirectory();
        for (long ord = 1; ord <= TenantNames.CAPACITY + 1; ord++) {
            directory.names.put(ord, "t" + ord);
        }
        TenantNames names = new TenantNames(directory);
        for (long ord = 1; ord <= TenantNames.CAPACITY; ord++) {
            names.name(ord);
        }
        names.name(1); // used again: ordinal 2 is now the eldest
        names.name(TenantNames.CAPACITY + 1);
        int before = directory.reads;
        names.name(1);
        assertThat(directory.reads).as("ordinal 1 stayed").isEqualTo(before);
        names.name(2);
        assertThat(directory.reads).as("ordinal 2 was evicted").isEqualTo(before + 1);
    }
}

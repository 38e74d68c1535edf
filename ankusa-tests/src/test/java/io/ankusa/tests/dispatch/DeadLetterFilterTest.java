package io.ankusa.tests.dispatch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ankusa.api.DeadLetter;
import io.ankusa.api.DeadLetterQuery;
import io.ankusa.api.Hook;
import io.ankusa.dispatch.DeadLetterFilter;
import io.ankusa.dispatch.FilteredDeadLetters;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The dead-letter filter: each field, cursor paging, and the bound on the letters one page examines. */
class DeadLetterFilterTest {

    @TempDir
    Path dir;

    /**
     * Three epochs one minute apart; in each, tenants acme and globex, sources "web" and "batch",
     * reasons "HTTP 410" (ids ending in 0) and "HTTP 451" (the rest): 4 hooks per tenant and epoch.
     * Returns the epochs' start times.
     */
    private static List<Instant> seed(DispatchFixture f) {
        List<Instant> epochs = new ArrayList<>();
        for (int epoch = 0; epoch < 3; epoch++) {
            epochs.add(Instant.ofEpochMilli(f.now()));
            List<Hook> hooks = new ArrayList<>();
            for (String tenant : List.of("acme", "globex")) {
                hooks.addAll(DeadLetters.hooks(tenant + "-e" + epoch + "-web-", 2, tenant, "web"));
                hooks.addAll(DeadLetters.hooks(tenant + "-e" + epoch + "-batch-", 2, tenant, "batch"));
            }
            DeadLetters.make(f, hooks, id -> id.endsWith("0") ? "HTTP 410 from the receiver" : "HTTP 451");
            f.clock().advance(60_000);
        }
        return epochs;
    }

    private static List<String> all(DispatchFixture f, DeadLetterFilter filter) {
        List<String> ids = new ArrayList<>();
        FilteredDeadLetters page = filter.page(f.queue(), 1_000);
        page.letters().forEach(l -> ids.add(l.hookId()));
        assertThat(page.next()).as("one page holds them all").isEmpty();
        return ids;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void eachFieldNarrowsTheLetters(String backend) {
        try (DispatchFixture f = DispatchFixture.open(backend, dir)) {
            List<Instant> epochs = seed(f);

            assertThat(all(f, DeadLetterFilter.all())).hasSize(24);
            assertThat(all(f, DeadLetterFilter.all().tenant("acme"))).hasSize(12).allMatch(id -> id.startsWith("acme-"));
            assertThat(all(f, DeadLetterFilter.all().tenant("nobody"))).isEmpty();
            assertThat(all(f, DeadLetterFilter.all().source("batch"))).hasSize(12).allMatch(id -> id.contains("-batch-"));
            assertThat(all(f, DeadLetterFilter.all().reason("410"))).hasSize(12).allMatch(id -> id.endsWith("0"));
            assertThat(all(f, DeadLetterFilter.all().scope("globex"::equals))).hasSize(12)
                    .allMatch(id -> id.startsWith("globex-"));
            assertThat(all(f, DeadLetterFilter.all().from(epochs.get(1)))).as("from is inclusive")
                    .hasSize(16).noneMatch(id -> id.contains("-e0-"));
            assertThat(all(f, DeadLetterFilter.all().to(epochs.get(1)))).as("to is exclusive")
                    .hasSize(8).allMatch(id -> id.contains("-e0-"));
            assertThat(all(f, DeadLetterFilter.all().tenant("globex").source("web").reason("451")
                    .from(epochs.get(1)).to(epochs.get(2))))
                    .containsExactly("globex-e1-web-1");
            assertThatThrownBy(() -> DeadLetterFilter.all().from(epochs.get(1)).to(epochs.get(1)))
                    .isInstanceOf(IllegalArgumentException.class);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void cursorPagingWalksTheMatchesNewestFirstOnce(String backend) {
        try (DispatchFixture f = DispatchFixture.open(backend, dir)) {
            seed(f);
            DeadLetterFilter filter = DeadLetterFilter.all().source("web");
            List<DeadLetter> expected = f.queue().deadLetters(DeadLetterQuery.all().limit(100)).letters().stream()
                    .filter(l -> l.sourceId().equals("web")).toList();

            List<DeadLetter> walked = new ArrayList<>();
            FilteredDeadLetters page = filter.page(f.queue(), 5);
            int pages = 1;
            walked.addAll(page.letters());
            while (page.next().isPresent()) {
                assertThat(page.letters()).hasSize(5);
                page = filter.page(f.queue(), page.next().get(), 5);
                walked.addAll(page.letters());
                pages++;
            }
            assertThat(walked).isEqualTo(expected);
            assertThat(pages).isEqualTo(3);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aPageExaminesABoundedNumberOfLettersAndReturnsACursorToResume(String backend) {
        try (DispatchFixture f = DispatchFixture.open(backend, dir)) {
            int many = DeadLetterFilter.MAX_EXAMINED + 300;
            DeadLetters.make(f, DeadLetters.hooks("b", many, "bulk", "web"), id -> "HTTP 500");
            DeadLetters.make(f, DeadLetters.hooks("q", 3, "quiet", "web"), id -> "HTTP 410");
            DeadLetterFilter rare = DeadLetterFilter.all().reason("HTTP 404");

            FilteredDeadLetters first = rare.page(f.queue(), 10);
            assertThat(first.letters()).isEmpty();
            assertThat(first.examined()).isEqualTo(DeadLetterFilter.MAX_EXAMINED);
            assertThat(first.next()).as("the walk is not over").isPresent();
            FilteredDeadLetters second = rare.page(f.queue(), first.next().get(), 10);
            assertThat(second.examined()).isEqualTo(many + 3 - DeadLetterFilter.MAX_EXAMINED);
            assertThat(second.next()).isEmpty();

            FilteredDeadLetters quiet = DeadLetterFilter.all().tenant("quiet").reason("HTTP 404").page(f.queue(), 10);
            assertThat(quiet.examined()).as("a tenant's page reads that tenant's letters only").isEqualTo(3);
            assertThat(quiet.next()).isEmpty();
        }
    }
}

package io.ankusa.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.api.Receipt;
import io.ankusa.queue.Queue;
import io.ankusa.spring.boot.sample.Notifications;
import io.ankusa.spring.boot.sample.Receiver;
import io.ankusa.spring.boot.sample.SampleApplication;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The starter in a sample service ({@link SampleApplication}): three {@code ankusa.*} properties, an
 * endpoint resolver and a client, nothing else. The first test ingests, sees every hook delivered
 * to a real receiver on 127.0.0.1 and health UP, acknowledges more hooks and leaves its context to
 * be closed (dirty) while they are under way. The second finds the first context's indicator DOWN
 * (store closed) and, in a new context on the same store, every acknowledged hook delivered: none
 * was lost in the shutdown.
 */
@SpringBootTest(classes = SampleApplication.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@DirtiesContext
class SampleApplicationTest {

    private static final Path DIRECTORY = temporaryDirectory();
    private static final Receiver RECEIVER = Receiver.start();

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        registry.add("ankusa.directory", DIRECTORY::toString);
        registry.add("ankusa.backend", () -> "rocksdb");
        registry.add("ankusa.health.max-oldest-due-age", () -> "5m");
        registry.add("ankusa.pipeline.tick-interval", () -> "20ms");
        registry.add("sample.receiver-url", () -> RECEIVER.url().toString());
    }

    @Autowired
    Notifications notifications;

    @Autowired
    AnkusaHealthIndicator health;

    @Autowired
    Queue queue;

    @AfterAll
    static void stopReceiver() {
        RECEIVER.close();
    }

    /** What the first test acknowledged; the second checks it after the first context is closed. */
    private static final Set<String> ACKNOWLEDGED = ConcurrentHashMap.newKeySet();
    /** The first context's indicator, asked again once that context is closed. */
    private static AnkusaHealthIndicator firstHealth;

    @Test
    @Order(1)
    @DirtiesContext(methodMode = DirtiesContext.MethodMode.AFTER_METHOD)
    void ingestsDeliversAndReportsHealthUp() throws Exception {
        ACKNOWLEDGED.addAll(send("first", 20));
        assertThat(RECEIVER.awaitAll(ACKNOWLEDGED, 60)).as("the receiver got every hook").isTrue();

        Health up = health.health();
        assertThat(up.getStatus()).isEqualTo(Status.UP);
        assertThat(up.getDetails()).containsEntry("state", "RUNNING").containsEntry("maxOldestDueAge", "PT5M");
        firstHealth = health;

        // More hooks, acknowledged; then the test framework closes this context (the method is
        // marked dirty) while they are being delivered.
        ACKNOWLEDGED.addAll(send("second", 40));
        assertThat(ACKNOWLEDGED).hasSize(60);
    }

    @Test
    @Order(2)
    void reportsDownOnceClosedAndLosesNoAcknowledgedHook() throws Exception {
        assertThat(firstHealth).as("the first test ran").isNotNull();
        Health down = firstHealth.health();
        assertThat(down.getStatus()).as("the first context closed its store").isEqualTo(Status.DOWN);
        assertThat(down.getDetails()).containsEntry("state", "CLOSED");

        // This test's context reopened the same store: what the receiver had not got (or had got
        // without the settle committing) is due again, and this context's pipeline delivers it.
        assertThat(RECEIVER.awaitAll(ACKNOWLEDGED, 60)).as("every acknowledged hook reaches the receiver").isTrue();
        assertThat(queue.stats().dead()).isZero();
        assertThat(health.health().getStatus()).isEqualTo(Status.UP);
    }

    private List<String> send(String batch, int n) throws Exception {
        List<CompletableFuture<Receipt>> receipts = new ArrayList<>();
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            String id = batch + "-" + i;
            ids.add(id);
            receipts.add(notifications.send("tenant-" + (i % 3), id, "{\"n\":" + i + "}"));
        }
        for (CompletableFuture<Receipt> receipt : receipts) {
            receipt.get(60, TimeUnit.SECONDS);
        }
        return ids;
    }

    private static Path temporaryDirectory() {
        try {
            // Under the module's build directory: the last context closes after the class (it is
            // dirty), after JUnit's own clean-ups would have run.
            return Files.createTempDirectory(Files.createDirectories(Path.of("target")), "sample-app-").resolve("store");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

package io.ankusa.tests.crash;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.api.Hook;
import io.ankusa.api.QueueConfig;
import io.ankusa.queue.Queue;
import io.ankusa.queue.engine.QueueEngine;
import io.ankusa.store.Store;
import io.ankusa.tests.queue.IndexFold;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Per-key order across kill -9 and recovery: the parent fills a store with hooks of a few ordering
 * keys, then runs child JVMs ({@link OrderedDispatchProcess}) on it one after the other, killing
 * each with SIGKILL after a seeded random number of its sink's answers, and a last one to the end.
 * Over every round together, each attempt of a key's delivery comes after every earlier delivery of
 * the key was answered delivered (a delivered head may be attempted again after a kill: at least
 * once), every hook is delivered, and the reopened store's counters equal a fold of its families,
 * with no ordering key left.
 *
 * <p>Rounds: {@code -Dankusa.crash.rounds} (default 3); replay with {@code -Dankusa.seed=…}.
 */
class OrderingKillNineTest {

    private static final int KEYS = 4;
    private static final int PER_KEY = 30;

    @TempDir
    Path tempDir;

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void deliveriesWithOneOrderingKeyArriveInIngestOrderAfterAKillNineAndRecovery(String backend) {
        long seed = Long.getLong("ankusa.seed", System.nanoTime());
        int rounds = Integer.getInteger("ankusa.crash.rounds", 3);
        SplittableRandom random = new SplittableRandom(seed);
        Path dir = tempDir.resolve("store");
        Map<String, List<String>> order = new HashMap<>();
        Map<String, String> keyOf = new HashMap<>();
        try (Queue queue = Queue.open(QueueConfig.builder(dir).backend(backend).build())) {
            for (int i = 0; i < PER_KEY; i++) {
                for (int k = 0; k < KEYS; k++) {
                    String id = "k" + k + "-" + i;
                    queue.ingest(Hook.builder().id(id).sourceId("src").tenantId("t" + (k % 2)).orderingKey("k" + k)
                            .payload("{}").sinks(0).build()).get(30, TimeUnit.SECONDS);
                    order.computeIfAbsent("k" + k, x -> new ArrayList<>()).add(id);
                    keyOf.put(id, "k" + k);
                }
            }
        } catch (Exception e) {
            throw new AssertionError(e);
        }
        Set<String> delivered = new HashSet<>();
        List<String> violations = new ArrayList<>();
        for (int round = 1; round <= rounds + 1; round++) {
            boolean last = round == rounds + 1;
            int killAfter = 1 + random.nextInt(KEYS * PER_KEY / rounds);
            int[] answers = {0};
            Predicate<String> read = line -> {
                if (line.startsWith("attempt ")) {
                    String id = line.substring("attempt ".length());
                    List<String> ids = order.get(keyOf.get(id));
                    for (String before : ids.subList(0, ids.indexOf(id))) {
                        if (!delivered.contains(before)) {
                            violations.add(id + " attempted before " + before + " was delivered");
                        }
                    }
                } else if (line.startsWith("ok ")) {
                    delivered.add(line.substring("ok ".length()));
                    answers[0]++;
                    return answers[0] >= killAfter;
                }
                return line.equals("drained");
            };
            try (ChildJvm child = ChildJvm.start(OrderedDispatchProcess.class,
                    tempDir.resolve("round-" + round + ".err"), backend, dir.toString(), Long.toString(random.nextLong()))) {
                child.readUntil(line -> read.test(line) && (!last || line.equals("drained")));
                if (!last) {
                    // What it printed before the kill counts too.
                    child.killNine().forEach(read::test);
                }
            }
            System.out.printf("ordering kill -9 %s round %d: %s after %d deliveries (seed %d)%n", backend, round,
                    last ? "drained" : "killed", answers[0], seed);
        }
        assertThat(violations).as("order violations (seed %d)", seed).isEmpty();
        assertThat(delivered).as("every hook delivered").hasSize(KEYS * PER_KEY);
        try (Queue queue = Queue.open(QueueConfig.builder(dir).backend(backend).build())) {
            Store store = QueueEngine.of(queue).store();
            IndexFold.of(store).assertCountersMatch(store);
        }
    }
}

package io.ankusa.tests.upgrade;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ankusa.api.QueueConfig;
import io.ankusa.keys.ColumnFamilies;
import io.ankusa.keys.MetaKeys;
import io.ankusa.queue.StoreUpgrade;
import io.ankusa.queue.migration.FormatGuard;
import io.ankusa.queue.migration.Migration;
import io.ankusa.queue.migration.MigrationContext;
import io.ankusa.queue.migration.MigrationStep;
import io.ankusa.queue.migration.Migrations;
import io.ankusa.store.Store;
import io.ankusa.store.StoreClosedException;
import io.ankusa.testkit.property.PropertyConfig;
import io.ankusa.tests.queue.IndexFold;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A migration interrupted anywhere resumes from its cursor and ends with exactly the rows and
 * counters of an uninterrupted run (TEN-1 §7, constraint 4): after every step k the store is
 * closed and the migration finished by a fresh open; and a child JVM migrating the store is
 * killed with SIGKILL at a random point and the migration finished by this one.
 */
class MigrationResumeTest {

    /**
     * 1 700 rows over all four phases: 4 steps of at most {@value Upgrades#STEP_ROWS} rows, phases
     * crossing step boundaries (the release's steps are larger; every run here uses the small ones,
     * and the first test checks that both end the same).
     */
    private static final FormatTwoBacklog BACKLOG = new FormatTwoBacklog(700, 400, 300, 300, 30, 7);

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void resumesInterruptedTenantMigrationWithoutDoubleCounting(String backend) {
        Path template = dir.resolve("template");
        BACKLOG.write(backend, template);
        Path uninterrupted = copy(template, "uninterrupted");
        List<StoreUpgrade.Progress> baseline = Upgrades.migrateInSteps(Upgrades.config(backend, uninterrupted));
        int steps = baseline.size();
        assertThat(steps).as("steps of the uninterrupted run").isGreaterThanOrEqualTo(4);
        assertThat(baseline.get(steps - 1).rows()).isEqualTo(BACKLOG.rows());
        List<String> expected = Upgrades.snapshot(backend, uninterrupted);
        Path released = copy(template, "release-steps");
        assertThat(Upgrades.migrate(Upgrades.config(backend, released))).as("the release's steps").hasSize(1);
        assertThat(Upgrades.snapshot(backend, released)).as("store migrated in the release's steps").isEqualTo(expected);

        for (int k = 1; k < steps; k++) {
            Path run = copy(template, "interrupted-after-" + k);
            QueueConfig config = Upgrades.config(backend, run);
            Upgrades.interruptAfter(config, k);
            try (Store s = Upgrades.openRaw(backend, run)) {
                assertThat(Upgrades.format(s)).as("format after %d steps", k).hasValue(2);
                assertThat(s.get(ColumnFamilies.DEFAULT, MetaKeys.migrating(3))).as("cursor after %d steps", k).isPresent();
            }

            List<StoreUpgrade.Progress> rest = Upgrades.migrateInSteps(config);

            assertThat(rest).as("steps left after %d of %d", k, steps).hasSize(steps - k);
            assertThat(rest.get(rest.size() - 1).rows()).as("rows moved by the resumed run after %d steps", k)
                    .isEqualTo(BACKLOG.rows() - baseline.get(k - 1).rows());
            assertThat(Upgrades.snapshot(backend, run)).as("store after an interruption after step %d", k)
                    .isEqualTo(expected);
            try (Store s = Upgrades.openRaw(backend, run)) {
                IndexFold.of(s).assertCountersMatch(s);
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void resumesTenantMigrationWithoutDoubleCountingAfterAKill9OfTheMigratingJvm(String backend) throws Exception {
        Path template = dir.resolve("template");
        BACKLOG.write(backend, template);
        Path uninterrupted = copy(template, "uninterrupted");
        int steps = Upgrades.migrateInSteps(Upgrades.config(backend, uninterrupted)).size();
        List<String> expected = Upgrades.snapshot(backend, uninterrupted);
        long seed = PropertyConfig.of(1, 1).seed();
        // The child may run one step past the step we kill after, so the last step is never reached.
        int killAfter = 1 + new SplittableRandom(seed).nextInt(steps - 2);
        String replay = "seed " + seed + " (replay with -Dankusa.seed=" + seed + "), killed after step " + killAfter;

        Path victim = copy(template, "victim");
        Path stderr = dir.resolve("child-stderr.txt");
        Process child = new ProcessBuilder(Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), MigrationChild.class.getName(), backend, victim.toString())
                .redirectError(stderr.toFile()).start();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
                Writer in = new OutputStreamWriter(child.getOutputStream(), StandardCharsets.UTF_8)) {
            int seen = 0;
            while (seen < killAfter) {
                String line = out.readLine();
                assertThat(line).as("child output (%s); stderr: %s", replay, Files.readString(stderr)).startsWith("committed ");
                seen = Integer.parseInt(line.split(" ")[1]);
                in.write("go\n");
                in.flush();
            }
            child.destroyForcibly();
            assertThat(child.waitFor(60, TimeUnit.SECONDS)).as("child ended").isTrue();
        } catch (IOException e) {
            // The pipe may break as the child dies; what matters is the store.
            child.destroyForcibly().waitFor(60, TimeUnit.SECONDS);
        }
        assertThat(child.exitValue()).as("killed, not finished (%s)", replay).isNotZero();
        try (Store s = Upgrades.openRaw(backend, victim)) {
            assertThat(Upgrades.format(s)).as("still format 2 (%s)", replay).hasValue(2);
            assertThat(s.get(ColumnFamilies.DEFAULT, MetaKeys.migrating(3))).as("cursor (%s)", replay).isPresent();
        }

        List<StoreUpgrade.Progress> rest = Upgrades.migrateInSteps(Upgrades.config(backend, victim));

        assertThat(rest.size()).as("steps left (%s)", replay).isBetween(steps - killAfter - 1, steps - killAfter);
        assertThat(Upgrades.snapshot(backend, victim)).as("store after kill -9 and resume (%s)", replay).isEqualTo(expected);
        try (Store s = Upgrades.openRaw(backend, victim)) {
            IndexFold.of(s).assertCountersMatch(s);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aPowerLossMidMigrationLosesOnlyUnsyncedStepsAndTheResumedRunEndsTheSame(String backend) {
        Path template = dir.resolve("template");
        BACKLOG.write(backend, template);
        Path uninterrupted = copy(template, "uninterrupted");
        int steps = Upgrades.migrateInSteps(Upgrades.config(backend, uninterrupted)).size();
        List<String> expected = Upgrades.snapshot(backend, uninterrupted);

        for (int k = 1; k <= steps; k++) {
            Path run = copy(template, "power-loss-after-" + k);
            QueueConfig config = Upgrades.config(backend, run);
            CheckpointAtSyncStore store;
            try (Store raw = Upgrades.openRaw(backend, run)) {
                // The first commit is the format-3 sentinels, then one per step.
                store = new CheckpointAtSyncStore(raw, dir.resolve("synced-after-" + k), k + 1);
                if (k < steps) {
                    assertThatThrownBy(() -> FormatGuard.prepare(store, Upgrades.smallSteps(), config))
                            .isInstanceOf(StoreClosedException.class);
                } else {
                    FormatGuard.prepare(store, Upgrades.smallSteps(), config);
                }
            }
            // What a power loss right after step k leaves at worst: the store as of its last synced
            // commit (the format-2 store itself if none was synced).
            Path survivor = copy(store.latestSynced().orElse(template), "survivor-after-" + k);
            try (Store s = Upgrades.openRaw(backend, survivor)) {
                assertThat(Upgrades.format(s)).as("format after a power loss after step %d of %d", k, steps)
                        .hasValue(k == steps ? 3 : 2);
            }
            if (k < steps) {
                Upgrades.migrateInSteps(Upgrades.config(backend, survivor));
            }
            assertThat(Upgrades.snapshot(backend, survivor)).as("store after a power loss after step %d and resume", k)
                    .isEqualTo(expected);
            try (Store s = Upgrades.openRaw(backend, survivor)) {
                IndexFold.of(s).assertCountersMatch(s);
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aMigrationReadingItsHooksByMultiGetEndsAsOneThatScansThem(String backend) {
        Path template = dir.resolve("template");
        BACKLOG.write(backend, template);
        Path scanned = copy(template, "scanned");
        Upgrades.migrate(Upgrades.config(backend, scanned));
        List<String> expected = Upgrades.snapshot(backend, scanned);

        // 0: no directory at all; 1 000: the scan meets more hooks (1 400) than the cap and gives up.
        for (int cap : new int[] {0, 1_000}) {
            Path run = copy(template, "cap-" + cap);
            QueueConfig config = Upgrades.config(backend, run);
            try (Store s = Upgrades.openRaw(backend, run)) {
                FormatGuard.prepare(s, Migrations.standardWithHookDirectoryCap(cap, Upgrades.STEP_ROWS), config);
            }
            assertThat(Upgrades.snapshot(backend, run)).as("store migrated with the hook directory capped at %d", cap)
                    .isEqualTo(expected);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aStepAskedForAgainBeforeItsBatchWasCommittedAllocatesItsOrdinalsAgain(String backend) {
        Path template = dir.resolve("template");
        BACKLOG.write(backend, template);
        Path uninterrupted = copy(template, "uninterrupted");
        Upgrades.migrateInSteps(Upgrades.config(backend, uninterrupted));
        List<String> expected = Upgrades.snapshot(backend, uninterrupted);

        // Every step is computed twice and only the second result committed, as a runner that
        // retried a step whose commit failed would: the run keeps ordinals across steps, and must
        // not take the dropped result's new ordinals for committed ones.
        Path run = copy(template, "asked-twice");
        QueueConfig config = Upgrades.config(backend, run);
        try (Store s = Upgrades.openRaw(backend, run)) {
            Migration real = Upgrades.smallSteps().plan(s, 2, 3).get(0);
            Migration askedTwice = new Migration() {
                @Override
                public int from() {
                    return real.from();
                }

                @Override
                public int to() {
                    return real.to();
                }

                @Override
                public String description() {
                    return real.description();
                }

                @Override
                public MigrationStep step(MigrationContext context, byte[] cursor) {
                    real.step(context, cursor);
                    return real.step(context, cursor);
                }
            };
            FormatGuard.prepare(s, Migrations.NONE.with(askedTwice), config);
        }
        assertThat(Upgrades.snapshot(backend, run)).as("store migrated with every step asked for twice")
                .isEqualTo(expected);
    }

    private Path copy(Path template, String name) {
        Path target = dir.resolve(name);
        StoreFixtures.copy(template, target);
        return target;
    }
}

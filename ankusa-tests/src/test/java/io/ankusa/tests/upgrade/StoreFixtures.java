package io.ankusa.tests.upgrade;

import io.ankusa.api.Hook;
import io.ankusa.api.QueueConfig;
import io.ankusa.queue.Queue;
import io.ankusa.queue.ledger.Claim;
import io.ankusa.queue.ledger.ClaimedDelivery;
import io.ankusa.queue.ledger.DeliveryLedger;
import io.ankusa.queue.ledger.DueRow;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import java.util.zip.ZipOutputStream;

/**
 * The fixture task: writes the format-2 and format-3 stores the upgrade tests read, and packs each
 * as a zip archive. Run it with {@link #main} (docs/testing.md gives the command); the archives are
 * committed under {@code ankusa-tests/src/test/resources/fixtures/} as
 * {@code store-v<format>-<backend>.zip}.
 *
 * <p>Both stores hold what TEN-1 §7 asks of the format-3 fixture: at least three tenants including
 * {@code default} (hooks with no tenant), pending, retrying and inflight rows (a crash leaves
 * inflight rows), dead rows, archive obligations, and a tenant with only dead rows ({@code initech}).
 * The format-2 store also holds a hook that does not decode and rows of hooks that are gone, all
 * filed under {@code default} by the migration. Times are around {@link #EPOCH}: first attempts are
 * due before it, retries an hour after it.
 *
 * <table>
 * <caption>Format-2 fixture: rows per tenant as the 2 → 3 migration files them (migration started at {@link #EPOCH})</caption>
 * <tr><th>tenant</th><th>pending</th><th>scheduled</th><th>inflight</th><th>dead</th><th>archive_pending</th></tr>
 * <tr><td>acme</td><td>3</td><td>1</td><td>1</td><td>2</td><td>5</td></tr>
 * <tr><td>globex</td><td>1</td><td>1</td><td>1</td><td>0</td><td>1</td></tr>
 * <tr><td>initech (only dead rows)</td><td>0</td><td>0</td><td>0</td><td>3</td><td>1</td></tr>
 * <tr><td>zürich</td><td>1</td><td>0</td><td>0</td><td>0</td><td>0</td></tr>
 * <tr><td>default (no tenant, broken hook, gone hooks)</td><td>2</td><td>0</td><td>2</td><td>2</td><td>2</td></tr>
 * </table>
 *
 * <table>
 * <caption>Format-3 fixture: rows per tenant before boot (boot moves inflight rows back to pending)</caption>
 * <tr><th>tenant</th><th>pending</th><th>scheduled</th><th>inflight</th><th>dead</th><th>archive_pending</th></tr>
 * <tr><td>acme</td><td>3</td><td>2</td><td>1</td><td>1</td><td>6</td></tr>
 * <tr><td>globex</td><td>2</td><td>0</td><td>1</td><td>0</td><td>3</td></tr>
 * <tr><td>initech (only dead rows)</td><td>0</td><td>0</td><td>0</td><td>4</td><td>3</td></tr>
 * <tr><td>default (no tenant)</td><td>1</td><td>1</td><td>0</td><td>1</td><td>3</td></tr>
 * </table>
 */
public final class StoreFixtures {

    /** The fixtures' clock: 2026-01-01T00:00:00Z. */
    public static final long EPOCH = 1_767_225_600_000L;

    /** The backends a fixture is written for. */
    public static final List<String> BACKENDS = List.of("rocksdb", "lmdb");

    /** Where the committed fixtures live, relative to the repository root. */
    public static final Path COMMITTED = Paths.get("ankusa-tests", "src", "test", "resources", "fixtures");

    private static final long MINUTE = 60_000;
    private static final long HOUR = 60 * MINUTE;

    private StoreFixtures() {
    }

    /** The archive's file name: {@code store-v2-rocksdb.zip}. */
    public static String archiveName(int format, String backend) {
        return "store-v" + format + "-" + backend + ".zip";
    }

    /** The committed fixture as a class path resource (open it, then {@link #unpack(InputStream, Path)}). */
    public static InputStream committed(int format, String backend) {
        InputStream in = StoreFixtures.class.getResourceAsStream("/fixtures/" + archiveName(format, backend));
        if (in == null) {
            throw new IllegalStateException("no committed fixture " + archiveName(format, backend)
                    + " on the class path; write it with the fixture task (docs/testing.md)");
        }
        return in;
    }

    /** Writes the format-2 fixture store into {@code target}, which must not exist. */
    public static void writeV2(String backend, Path target) {
        Path scratch = scratch("ankusa-fixture-v2");
        try (FormatTwoWriter w = FormatTwoWriter.create(backend, scratch.resolve("store"))) {
            long received = EPOCH - 2 * HOUR;
            long due = EPOCH - MINUTE;
            long retry = EPOCH + HOUR;
            long died = EPOCH - HOUR;

            long a1 = w.hook(hook("a1", "acme", 1, 2), received);
            long a2 = w.hook(hook("a2", "acme", 1), received);
            long a3 = w.hook(hook("a3", "acme", 1), received);
            long a4 = w.hook(hook("a4", "acme", 1), received);
            long a5 = w.hook(hook("a5", "acme", 1, 2), received);
            w.due(a1, 1, due, 0);
            w.due(a1, 2, due, 0);
            w.due(a2, 1, retry, 2);
            w.inflight(a3, 1);
            w.dead(a4, 1, died, "src", "a4");
            w.due(a5, 1, due, 0);
            w.dead(a5, 2, died, "src", "a5");
            for (long seq : new long[] {a1, a2, a3, a4, a5}) {
                w.archive(seq);
            }

            long g1 = w.hook(hook("g1", "globex", 1), received);
            long g2 = w.hook(hook("g2", "globex", 3), received);
            long g3 = w.hook(hook("g3", "globex", 1), received);
            w.due(g1, 1, due, 0);
            w.due(g2, 3, retry, 1);
            w.inflight(g3, 1);
            w.archive(g1);

            long i1 = w.hook(hook("i1", "initech", 1), received);
            long i2 = w.hook(hook("i2", "initech", 1, 2), received);
            w.dead(i1, 1, died, "src", "i1");
            w.dead(i2, 1, died + 1, "src", "i2");
            w.dead(i2, 2, died + 2, "src", "i2");
            w.archive(i1);

            long z1 = w.hook(hook("z1", "zürich", 1), received);
            w.due(z1, 1, due + 1, 0);

            long d1 = w.hook(hook("d1", null, 1), received);
            long d2 = w.hook(hook("d2", null, 1), received);
            long d3 = w.hook(hook("d3", null, 1), received);
            w.due(d1, 1, due, 0);
            w.dead(d2, 1, died, "src", "d2");
            w.inflight(d3, 1);
            w.archive(d1);

            long b1 = w.brokenHook("not an envelope".getBytes(StandardCharsets.UTF_8));
            w.due(b1, 1, due, 0);
            w.archive(b1);
            long m1 = w.missingHook(77);
            w.inflight(m1, 1);
            long m2 = w.missingHook(88);
            w.dead(m2, 2, died, "src", "m2");

            w.store().checkpoint(target);
        } finally {
            delete(scratch);
        }
    }

    /** Writes the format-3 fixture store into {@code target}, which must not exist, through the queue itself. */
    public static void writeV3(String backend, Path target) {
        Path scratch = scratch("ankusa-fixture-v3");
        QueueConfig config = QueueConfig.builder(scratch.resolve("store")).backend(backend).archive(true)
                .clock(InstantSource.fixed(Instant.ofEpochMilli(EPOCH))).build();
        try (Queue queue = Queue.open(config)) {
            for (String id : List.of("a1", "a2", "a3", "a4", "a5", "a6")) {
                ingest(queue, hook(id, "acme", id.equals("a1") ? new int[] {1, 2} : new int[] {1}));
            }
            for (String id : List.of("g1", "g2", "g3")) {
                ingest(queue, hook(id, "globex", 1));
            }
            for (String id : List.of("i1", "i2", "i3")) {
                ingest(queue, hook(id, "initech", id.equals("i2") ? new int[] {1, 2} : new int[] {1}));
            }
            for (String id : List.of("d1", "d2", "d3")) {
                ingest(queue, hook(id, null, 1));
            }
            DeliveryLedger ledger = DeliveryLedger.of(queue);
            List<ClaimedDelivery> acme = claim(queue, ledger, "acme", 4);
            ledger.retry(acme.get(0), EPOCH + HOUR, "HTTP 503");
            ledger.retry(acme.get(1), EPOCH + HOUR, "HTTP 503");
            ledger.dead(acme.get(2), "HTTP 410");
            // acme.get(3) and globex's claim stay inflight, as a crash leaves them.
            claim(queue, ledger, "globex", 1);
            for (ClaimedDelivery d : claim(queue, ledger, "initech", 100)) {
                ledger.dead(d, "HTTP 410");
            }
            List<ClaimedDelivery> byDefault = claim(queue, ledger, "default", 2);
            ledger.dead(byDefault.get(0), "HTTP 410");
            ledger.retry(byDefault.get(1), EPOCH + HOUR, "timeout");
            queue.checkpoint(target);
        } finally {
            delete(scratch);
        }
    }

    private static List<ClaimedDelivery> claim(Queue queue, DeliveryLedger ledger, String tenant, int n) {
        long ord = queue.ord(tenant).orElseThrow();
        List<DueRow> due = ledger.dueForTenant(ord, EPOCH, 0, n, Long.MAX_VALUE);
        Claim claim = ledger.claim(ord, due);
        if (claim.claimed().size() != due.size()) {
            throw new IllegalStateException("fixture claim of " + tenant + " came back short: " + claim);
        }
        return claim.claimed();
    }

    private static void ingest(Queue queue, Hook hook) {
        queue.ingest(hook).join();
    }

    /** A small hook; {@code tenant} null for none. */
    static Hook hook(String id, String tenant, int... sinks) {
        Hook.Builder b = Hook.builder().id(id).sourceId("src").header("content-type", "application/json")
                .payload("{\"id\":\"" + id + "\"}").sinks(sinks);
        if (tenant != null) {
            b.tenantId(tenant);
        }
        return b.build();
    }

    /**
     * Packs the closed store in {@code storeDir} into the zip {@code archive}: every file, sorted,
     * without RocksDB's informational {@code LOG} files, with fixed timestamps.
     */
    public static void pack(Path storeDir, Path archive) {
        try {
            Files.createDirectories(archive.toAbsolutePath().getParent());
            List<Path> files;
            try (Stream<Path> walk = Files.walk(storeDir)) {
                files = walk.filter(Files::isRegularFile)
                        .filter(p -> !p.getFileName().toString().startsWith("LOG"))
                        .sorted(Comparator.comparing(p -> storeDir.relativize(p).toString()))
                        .toList();
            }
            try (OutputStream out = Files.newOutputStream(archive); ZipOutputStream zip = new ZipOutputStream(out)) {
                zip.setLevel(9);
                for (Path file : files) {
                    ZipEntry entry = new ZipEntry(storeDir.relativize(file).toString().replace('\\', '/'));
                    entry.setTime(EPOCH);
                    zip.putNextEntry(entry);
                    Files.copy(file, zip);
                    zip.closeEntry();
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot pack " + storeDir + " into " + archive, e);
        }
    }

    /** Unpacks {@code archive} into {@code target} (created; must not hold a store). */
    public static void unpack(InputStream archive, Path target) {
        try (ZipInputStream zip = new ZipInputStream(archive)) {
            Files.createDirectories(target);
            Path root = target.toAbsolutePath().normalize();
            ZipEntry entry;
            while ((entry = zip.getNextEntry()) != null) {
                Path file = root.resolve(entry.getName()).normalize();
                if (!file.startsWith(root)) {
                    throw new IOException("archive entry escapes the target: " + entry.getName());
                }
                if (entry.isDirectory()) {
                    Files.createDirectories(file);
                } else {
                    Files.createDirectories(file.getParent());
                    Files.copy(zip, file);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot unpack into " + target, e);
        }
    }

    /** Unpacks the zip file {@code archive} into {@code target}. */
    public static void unpack(Path archive, Path target) {
        try (InputStream in = Files.newInputStream(archive)) {
            unpack(in, target);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + archive, e);
        }
    }

    /**
     * Writes both fixtures for every backend and packs them into {@code args[0]} (default
     * {@link #COMMITTED}, relative to the working directory), replacing older archives.
     */
    public static void main(String[] args) {
        Path out = args.length > 0 ? Paths.get(args[0]) : COMMITTED;
        for (String backend : BACKENDS) {
            for (int format : new int[] {2, 3}) {
                Path scratch = scratch("ankusa-fixture-pack");
                try {
                    Path store = scratch.resolve("store");
                    if (format == 2) {
                        writeV2(backend, store);
                    } else {
                        writeV3(backend, store);
                    }
                    Path archive = out.resolve(archiveName(format, backend));
                    pack(store, archive);
                    System.out.printf("%s  %,d bytes%n", archive, Files.size(archive));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                } finally {
                    delete(scratch);
                }
            }
        }
    }

    private static Path scratch(String prefix) {
        try {
            return Files.createTempDirectory(prefix);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Deletes {@code dir} and everything in it, if it exists. */
    static void delete(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + dir, e);
        }
    }

    /** Copies the closed store in {@code from} into the new directory {@code to}. */
    public static void copy(Path from, Path to) {
        try (Stream<Path> walk = Files.walk(from)) {
            for (Path p : walk.sorted().toList()) {
                Path dest = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(dest);
                } else {
                    Files.copy(p, dest);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot copy " + from + " to " + to, e);
        }
    }
}

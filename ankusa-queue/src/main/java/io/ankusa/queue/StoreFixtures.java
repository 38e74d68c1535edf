package io.ankusa.queue;

import io.ankusa.api.Hook;
import io.ankusa.api.QueueConfig;
import io.ankusa.queue.ledger.Claim;
import io.ankusa.queue.ledger.ClaimedDelivery;
import io.ankusa.queue.ledger.DeliveryLedger;
import io.ankusa.queue.ledger.DueRow;
import io.ankusa.queue.migration.FormatTwoFixture;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

/**
 * Fixture stores, for tests and demos ({@code ankusa fixture}): {@link #write} writes a format-2 and
 * a format-3 store for one backend and packs each as a zip archive {@code store-v<format>-<backend>.zip}.
 * The archives committed under {@code ankusa-tests/src/test/resources/fixtures/} are what the
 * upgrade tests read. Not for production stores.
 *
 * <p>Both stores hold what TEN-1 §7 asks of a fixture: at least three tenants including
 * {@code default} (hooks with no tenant), pending, retrying and inflight rows (a crash leaves
 * inflight rows), dead rows, archive obligations, and a tenant with only dead rows ({@code initech}).
 * The format-2 store is written row by row in the format-2 layout; it also holds a hook that does
 * not decode and rows of hooks that are gone, all filed under {@code default} by the migration. The
 * format-3 store is written through the queue and its delivery ledger. Times are around
 * {@link #EPOCH}: first attempts are due before it, retries an hour after it.
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
 *
 * <p>An archive holds every file of the closed store, sorted, without RocksDB's informational
 * {@code LOG} files, with {@link #EPOCH} as every entry's time; unzipped into an empty directory
 * it opens as a store of that backend.
 */
public final class StoreFixtures {

    /** The fixtures' clock: 2026-01-01T00:00:00Z. */
    public static final long EPOCH = 1_767_225_600_000L;

    private static final long HOUR = 3_600_000;

    private StoreFixtures() {
    }

    /** The archive's file name: {@code store-v2-rocksdb.zip}. */
    public static String archiveName(int format, String backend) {
        return "store-v" + format + "-" + backend + ".zip";
    }

    /**
     * Writes the format-2 and the format-3 fixture store with the {@code backend} backend and packs
     * each into {@code outputDir} (created if missing), replacing an archive of the same name.
     * Scratch stores go to the temporary directory and are deleted.
     *
     * @return the archives written: format 2, then format 3
     * @throws io.ankusa.store.StoreException when {@code backend} is not on the module path or fails
     * @throws UncheckedIOException           when a file cannot be written
     */
    public static List<Path> write(Path outputDir, String backend) {
        Objects.requireNonNull(outputDir, "outputDir");
        Objects.requireNonNull(backend, "backend");
        Path v2 = outputDir.resolve(archiveName(2, backend));
        Path v3 = outputDir.resolve(archiveName(3, backend));
        Path scratch = scratch();
        try {
            FormatTwoFixture.write(backend, scratch.resolve("v2-work"), scratch.resolve("v2"), EPOCH);
            pack(scratch.resolve("v2"), v2);
            writeFormatThree(backend, scratch.resolve("v3-work"), scratch.resolve("v3"));
            pack(scratch.resolve("v3"), v3);
        } finally {
            delete(scratch);
        }
        return List.of(v2, v3);
    }

    /** Writes the format-3 fixture through the queue in {@code work} and checkpoints it into {@code target}. */
    private static void writeFormatThree(String backend, Path work, Path target) {
        QueueConfig config = QueueConfig.builder(work).backend(backend).archive(true)
                .clock(InstantSource.fixed(Instant.ofEpochMilli(EPOCH))).build();
        try (Queue queue = Queue.open(config)) {
            for (String id : List.of("a1", "a2", "a3", "a4", "a5", "a6")) {
                ingest(queue, FormatTwoFixture.hook(id, "acme", id.equals("a1") ? new int[] {1, 2} : new int[] {1}));
            }
            for (String id : List.of("g1", "g2", "g3")) {
                ingest(queue, FormatTwoFixture.hook(id, "globex", 1));
            }
            for (String id : List.of("i1", "i2", "i3")) {
                ingest(queue, FormatTwoFixture.hook(id, "initech", id.equals("i2") ? new int[] {1, 2} : new int[] {1}));
            }
            for (String id : List.of("d1", "d2", "d3")) {
                ingest(queue, FormatTwoFixture.hook(id, null, 1));
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

    /** Packs the closed store in {@code storeDir} into the zip {@code archive}, replacing it. */
    private static void pack(Path storeDir, Path archive) {
        try {
            Files.createDirectories(archive.toAbsolutePath().getParent());
            List<Path> files;
            try (Stream<Path> walk = Files.walk(storeDir)) {
                files = walk.filter(Files::isRegularFile)
                        .filter(p -> !p.getFileName().toString().startsWith("LOG"))
                        .sorted(Comparator.comparing(p -> storeDir.relativize(p).toString()))
                        .toList();
            }
            Path partial = archive.resolveSibling(archive.getFileName() + ".partial");
            try (OutputStream out = Files.newOutputStream(partial); ZipOutputStream zip = new ZipOutputStream(out)) {
                zip.setLevel(9);
                for (Path file : files) {
                    ZipEntry entry = new ZipEntry(storeDir.relativize(file).toString().replace('\\', '/'));
                    entry.setTime(EPOCH);
                    zip.putNextEntry(entry);
                    Files.copy(file, zip);
                    zip.closeEntry();
                }
            }
            Files.move(partial, archive, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot pack " + storeDir + " into " + archive, e);
        }
    }

    private static Path scratch() {
        try {
            return Files.createTempDirectory("ankusa-fixture");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a scratch directory", e);
        }
    }

    private static void delete(Path dir) {
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + dir, e);
        }
    }
}

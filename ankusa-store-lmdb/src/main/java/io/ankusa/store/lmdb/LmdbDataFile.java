package io.ankusa.store.lmdb;

import io.ankusa.store.StoreCorruptionException;
import io.ankusa.store.StoreError;
import io.ankusa.store.StoreException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Checks an LMDB data file against its two meta pages with plain file I/O, before LMDB maps it.
 *
 * <p>Why: LMDB trusts the file. It maps {@code data.mdb} and follows page numbers into the map; a
 * file shorter than its newest meta page says ({@code mm_last_pg}) makes the first read of a page
 * past the end fault with {@code SIGBUS}, which kills the whole JVM (an embedding service with
 * it). This check turns that into a {@link StoreCorruptionException} at open.
 *
 * <p>What it reads (64-bit little-endian layout of {@code MDB_meta} in LMDB's {@code mdb.c}; meta
 * page {@code i} starts at byte {@code i * pageSize}; the page size is kept in the free
 * database's {@code md_pad}):
 *
 * <pre>
 * offset size field
 * ------ ---- ---------------------------------------------------------------
 *      0    8 mp_pgno        page number: 0 or 1
 *     10    2 mp_flags       P_META (0x08)
 *     16    4 mm_magic       0xBEEFC0DE
 *     20    4 mm_version     1 (MDB_DATA_VERSION)
 *     40    4 mm_dbs[0].md_pad  page size (a power of two, 512 to 65536)
 *     80    8 mm_dbs[0].md_root root page of the free-page tree, or ~0 when empty
 *    128    8 mm_dbs[1].md_root root page of the main tree, or ~0 when empty
 *    136    8 mm_last_pg     last page in use
 *    144    8 mm_txnid       transaction that wrote this meta page
 * </pre>
 *
 * <p>LMDB opens with the valid meta page of the higher {@code mm_txnid}; so does this check. It
 * requires the file to hold at least {@code (mm_last_pg + 1) * pageSize} bytes and both roots to
 * lie within that. It cannot see damage <em>inside</em> the pages (LMDB has no checksums): that is
 * what {@link LmdbErrors} reports when LMDB's own page checks notice it.
 */
final class LmdbDataFile {

    static final int MAGIC = 0xBEEFC0DE;
    static final int VERSION = 1;
    static final int P_META = 0x08;
    static final long NO_PAGE = -1L;
    static final int META_BYTES = 152;

    private LmdbDataFile() {
    }

    /**
     * Refuses {@code file} when it cannot be an intact LMDB data file. An empty file passes: LMDB
     * writes the meta pages of a new environment itself.
     *
     * @throws StoreCorruptionException naming what is wrong and what the meta page expects
     */
    static void requireIntact(Path file) {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            long size = channel.size();
            if (size == 0) {
                return;
            }
            Meta first = Meta.read(channel, 0);
            if (first.problem != null) {
                throw corrupt(file, "meta page 0 " + first.problem);
            }
            Meta second = Meta.read(channel, first.pageSize);
            if (second.problem != null) {
                throw corrupt(file, "meta page 1 " + second.problem);
            }
            Meta newest = second.txnId > first.txnId ? second : first;
            if (newest.lastPage < 1 || newest.lastPage > Long.MAX_VALUE / newest.pageSize - 1) {
                throw corrupt(file, "its meta page " + newest.number + " names last page " + newest.lastPage);
            }
            long needed = (newest.lastPage + 1) * newest.pageSize;
            if (size < needed) {
                throw corrupt(file, "it is " + size + " bytes but its meta page (transaction " + newest.txnId
                        + ") needs " + needed + " (" + (newest.lastPage + 1) + " pages of " + newest.pageSize
                        + " bytes): the file was truncated");
            }
            for (long root : new long[] {newest.freeRoot, newest.mainRoot}) {
                if (root != NO_PAGE && (root < 2 || root > newest.lastPage)) {
                    throw corrupt(file, "its meta page " + newest.number + " names root page " + root
                            + " outside pages 2.." + newest.lastPage);
                }
            }
        } catch (IOException e) {
            if (!Files.exists(file)) {
                throw new StoreCorruptionException("the LMDB data file " + file + " is missing", e);
            }
            throw new StoreException(StoreError.IO, "cannot read " + file + ": " + e.getMessage(), e);
        }
    }

    private static StoreCorruptionException corrupt(Path file, String why) {
        return new StoreCorruptionException("the LMDB data file " + file + " is damaged: " + why
                + "; refusing to map it. Restore the store directory from a backup or checkpoint");
    }

    /** One meta page as read, or what is wrong with it. */
    private record Meta(long number, int pageSize, long freeRoot, long mainRoot, long lastPage, long txnId,
            String problem) {

        static Meta read(FileChannel channel, long offset) throws IOException {
            ByteBuffer page = ByteBuffer.allocate(META_BYTES).order(ByteOrder.LITTLE_ENDIAN);
            while (page.hasRemaining()) {
                if (channel.read(page, offset + page.position()) < 0) {
                    return invalid(offset, "is cut short (the file ends at " + channel.size() + " bytes)");
                }
            }
            long number = page.getLong(0);
            int flags = page.getShort(10) & 0xFFFF;
            int magic = page.getInt(16);
            int version = page.getInt(20);
            int pageSize = page.getInt(40);
            if (magic != MAGIC) {
                return invalid(offset, "has no LMDB magic number (found 0x" + Integer.toHexString(magic) + ")");
            }
            if (version != VERSION) {
                return invalid(offset, "has LMDB data version " + version + ", not " + VERSION);
            }
            if ((flags & P_META) == 0 || number != (offset == 0 ? 0 : 1)) {
                return invalid(offset, "is not marked as meta page " + (offset == 0 ? 0 : 1));
            }
            if (pageSize < 512 || pageSize > 65536 || Integer.bitCount(pageSize) != 1) {
                return invalid(offset, "names page size " + pageSize);
            }
            return new Meta(number, pageSize, page.getLong(80), page.getLong(128), page.getLong(136),
                    page.getLong(144), null);
        }

        private static Meta invalid(long offset, String problem) {
            return new Meta(offset == 0 ? 0 : 1, 0, NO_PAGE, NO_PAGE, 0, -1, problem);
        }
    }
}

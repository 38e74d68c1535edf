package io.ankusa.tests.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.testkit.store.StoreConformanceSuite;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The conformance suite on the LMDB backend, with corruption injection that LMDB can honestly
 * detect. LMDB keeps no checksums: flipped bytes inside a key or value read back as other data,
 * and damaged node offsets can make it read outside a page (and crash the process). What it does
 * check is that every page number it follows lies below the last page of the transaction
 * ({@code MDB_PAGE_NOTFOUND}) and that a tree descent ends on a leaf ({@code MDB_CORRUPTED}).
 * So the injector damages the <em>child pointers</em> of branch pages: in every branch page of the
 * closed store, the second child's page number is pointed far past the end of the file. A read or
 * scan that needs that subtree must then fail with a corruption error, never end early.
 */
class LmdbConformanceTest extends StoreConformanceSuite {

    /** {@code P_BRANCH} in {@code mp_flags}. */
    private static final int P_BRANCH = 0x01;
    /** {@code P_LEAF | P_BRANCH | P_OVERFLOW}: the page-type bits. */
    private static final int PAGE_TYPE = 0x07;
    /** LMDB's page header: {@code mp_pgno, mp_pad, mp_flags, mp_lower, mp_upper}. */
    private static final int PAGE_HEADER = 16;

    @Override
    protected String backend() {
        return "lmdb";
    }

    @Override
    protected boolean supportsCorruptionInjection() {
        return true;
    }

    @Override
    protected void corruptDataFiles(Path directory) throws IOException {
        int damaged = 0;
        try (FileChannel file = FileChannel.open(directory.resolve("data.mdb"), StandardOpenOption.READ,
                StandardOpenOption.WRITE)) {
            int pageSize = read(file, 0, 64).getInt(40);
            long pages = file.size() / pageSize;
            for (long pgno = 2; pgno < pages; pgno++) {
                ByteBuffer page = read(file, pgno * pageSize, pageSize);
                int flags = page.getShort(10) & 0xFFFF;
                int entries = ((page.getShort(12) & 0xFFFF) - PAGE_HEADER) / 2;
                if ((flags & PAGE_TYPE) != P_BRANCH || entries < 2) {
                    continue;
                }
                int node = page.getShort(PAGE_HEADER + 2) & 0xFFFF;
                // A branch node's child page number is mn_lo | mn_hi << 16 | mn_flags << 32.
                page.putShort(node + 4, (short) 0x7FFF);
                page.position(0);
                file.write(page, pgno * pageSize);
                damaged++;
            }
            file.force(true);
        }
        assertThat(damaged).as("branch pages damaged in %s", directory).isPositive();
    }

    private static ByteBuffer read(FileChannel file, long offset, int length) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate(length).order(ByteOrder.LITTLE_ENDIAN);
        while (buffer.hasRemaining()) {
            if (file.read(buffer, offset + buffer.position()) < 0) {
                throw new IOException("data.mdb ends inside page at " + offset);
            }
        }
        buffer.flip();
        return buffer;
    }
}

package io.ankusa.queue.intake;

import io.ankusa.api.TenantPolicy;
import io.ankusa.queue.admission.TokenBucket;
import java.util.Arrays;

/**
 * Ingest admission's per-tenant state, indexed by tenant ordinal: each tenant's policy (as last
 * read from the policy cache), its estimate of pending rows and bytes with the batch in which it
 * was last read from the counters, and its ingest-rate bucket.
 *
 * <p>Ordinals are dense (1, 2, 3, … in first-sight order), so the state lives in pages of
 * {@value #PAGE_SIZE} ordinals allocated on first use, and within a page each kind of state is
 * allocated only when a tenant of that page needs it: a page of tenants with no ingest limit (the
 * default policy) holds only policy references (4 or 8 bytes a tenant); one with pending limits
 * adds three {@code long}s a tenant (24 bytes); a rate-limited tenant adds its bucket. A million
 * tenants all with pending limits hold about 28 MB; with the default policy about 4 MB. Nothing is
 * ever evicted, so a tenant's estimate is read from its counters once, not again each time a
 * bounded cache would have dropped it, and its bucket is never reset to full.
 *
 * <p>Writer thread only; not thread-safe.
 */
final class AdmissionSlots {

    static final int PAGE_BITS = 12;
    static final int PAGE_SIZE = 1 << PAGE_BITS;
    private static final int MASK = PAGE_SIZE - 1;

    /** One page of {@link #PAGE_SIZE} ordinals. */
    static final class Page {
        final TenantPolicy[] policies = new TenantPolicy[PAGE_SIZE];
        /** Estimated pending rows, -1 until read; with {@link #bytes} and {@link #readInBatch}, null until needed. */
        long[] rows;
        long[] bytes;
        long[] readInBatch;
        TokenBucket[] buckets;

        /** Allocates the estimates of this page (every one unread). */
        void needEstimates() {
            if (rows == null) {
                rows = new long[PAGE_SIZE];
                Arrays.fill(rows, -1);
                bytes = new long[PAGE_SIZE];
                readInBatch = new long[PAGE_SIZE];
                Arrays.fill(readInBatch, -1);
            }
        }

        /** Allocates the buckets of this page. */
        void needBuckets() {
            if (buckets == null) {
                buckets = new TokenBucket[PAGE_SIZE];
            }
        }
    }

    private Page[] pages = new Page[16];

    /** The page holding {@code ord} (positive), allocated if absent. */
    Page page(long ord) {
        int index = (int) (ord >>> PAGE_BITS);
        if (index >= pages.length) {
            pages = Arrays.copyOf(pages, Math.max(index + 1, pages.length * 2));
        }
        Page page = pages[index];
        if (page == null) {
            page = new Page();
            pages[index] = page;
        }
        return page;
    }

    /** The index of {@code ord} within its page. */
    static int slot(long ord) {
        return (int) (ord & MASK);
    }

    /** Every estimate unread again (a commit failed: the counters may or may not include it). */
    void forgetEstimates() {
        for (Page page : pages) {
            if (page != null && page.rows != null) {
                Arrays.fill(page.rows, -1);
            }
        }
    }

    /** Every cached policy dropped (a policy changed): each tenant's next hook reads its policy again. */
    void forgetPolicies() {
        for (Page page : pages) {
            if (page != null) {
                Arrays.fill(page.policies, null);
            }
        }
    }

    /** Drops all state of {@code ord}: its ordinal was handed out but not committed, and may go to another tenant. */
    void forget(long ord) {
        int index = (int) (ord >>> PAGE_BITS);
        if (ord <= 0 || index >= pages.length || pages[index] == null) {
            return;
        }
        Page page = pages[index];
        int slot = slot(ord);
        page.policies[slot] = null;
        if (page.rows != null) {
            page.rows[slot] = -1;
            page.readInBatch[slot] = -1;
            page.bytes[slot] = 0;
        }
        if (page.buckets != null) {
            page.buckets[slot] = null;
        }
    }

    /** Pages allocated (for tests). */
    int pageCount() {
        int n = 0;
        for (Page page : pages) {
            n += page == null ? 0 : 1;
        }
        return n;
    }
}

package io.ankusa.dispatch.engine;

import io.ankusa.queue.ledger.TenantDirectory;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The tenant ids of the ordinals the scheduler visits, kept across visits: a lane is forgotten when
 * its tenant drains, and a tenant with a few rows at a time would otherwise cost a point read of
 * its name (for its policy) at every return. An ordinal is never handed out twice, so a cached name
 * never goes stale for a tenant that has rows; an erased tenant's ordinal keeps its old name here,
 * which costs nothing (it has no rows left to claim). At most {@link #CAPACITY} names, the least
 * recently used evicted first; an ordinal without a name is not cached (asked again next time).
 * The names of the tenants a feed page brings are read together ({@link #prefetch}: one multi-get
 * a page instead of one read per tenant at its first turn).
 *
 * <p>Tick thread only (and monitoring reads under the tick's lock).
 */
final class TenantNames {

    /** Names kept. */
    static final int CAPACITY = 65_536;

    private final TenantDirectory directory;
    private final Map<Long, String> names = new LeastRecentlyUsed();
    private long reads;

    /** An access-ordered map that drops its eldest entry past {@link #CAPACITY}. */
    private static final class LeastRecentlyUsed extends LinkedHashMap<Long, String> {
        private static final long serialVersionUID = 1L;

        LeastRecentlyUsed() {
            super(1024, 0.75f, true);
        }

        @Override
        protected boolean removeEldestEntry(Map.Entry<Long, String> eldest) {
            return size() > CAPACITY;
        }
    }

    TenantNames(TenantDirectory directory) {
        this.directory = Objects.requireNonNull(directory, "directory");
    }

    /** Tenant {@code ord}'s id: from the cache, else one read of the directory (may throw its error). */
    Optional<String> name(long ord) {
        String cached = names.get(ord);
        if (cached != null) {
            return Optional.of(cached);
        }
        reads++;
        Optional<String> name = directory.name(ord);
        name.ifPresent(n -> names.put(ord, n));
        return name;
    }

    /**
     * Reads the names of those of {@code ords} not kept yet in one read of the directory (a
     * multi-get), and keeps them: the tenants of a feed page, before their first turn.
     */
    void prefetch(Collection<Long> ords) {
        List<Long> missing = new ArrayList<>();
        for (long ord : ords) {
            if (!names.containsKey(ord)) {
                missing.add(ord);
            }
        }
        if (missing.isEmpty()) {
            return;
        }
        reads++;
        names.putAll(directory.names(missing));
    }

    /** Directory reads so far (for tests). */
    long reads() {
        return reads;
    }
}

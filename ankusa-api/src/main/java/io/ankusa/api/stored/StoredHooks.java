package io.ankusa.api.stored;

import io.ankusa.api.Hook;
import java.util.Objects;
import java.util.function.Function;

/**
 * Rebuilds a hook read back from a store. A stored hook was acknowledged under the input rules of
 * the release that wrote it; a later release that tightens those rules (bounds on ids and headers,
 * printable tenant ids) must still read it, or it would turn acknowledged hooks into "corruption".
 * So a restored hook is checked only against what its stored form can hold (non-empty id and
 * source, tenant id and idempotency key within their key limits, 1..65 535 distinct sinks), never
 * against the newer input rules of {@link Hook.Builder#build()}.
 *
 * <p>Exported to the queue only; not part of the public API.
 */
public final class StoredHooks {

    private static volatile Function<Hook.Builder, Hook> restorer;

    private StoredHooks() {
    }

    /**
     * The hook {@code builder} describes, checked against the storage rules only.
     *
     * @throws io.ankusa.api.InvalidHookException if it breaks a storage rule
     */
    public static Hook restore(Hook.Builder builder) {
        Objects.requireNonNull(builder, "builder");
        // Holding a builder means Hook is initialised, and its initialiser registered the restorer.
        return restorer.apply(builder);
    }

    /** Called once by {@link Hook}'s class initialiser; a second call is refused. */
    public static synchronized void register(Function<Hook.Builder, Hook> restore) {
        if (restorer != null) {
            throw new IllegalStateException("the stored-hook restorer is registered already");
        }
        restorer = Objects.requireNonNull(restore, "restore");
    }
}

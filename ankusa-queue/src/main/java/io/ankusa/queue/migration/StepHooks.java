package io.ankusa.queue.migration;

import io.ankusa.queue.deliveries.HookEnvelope;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * What one step of the 2 → 3 migration needs of the hooks its rows point at: whose rows they are
 * (the envelope's tenant id, else {@code "default"}; a hook that is gone or does not decode files
 * its rows under {@code "default"} too), the stored envelope's length, and, for dead rows whose
 * value did not decode, the envelope itself.
 */
interface StepHooks {

    /** The ordinal of the tenant rows of hook {@code seq} are filed under (allocated in {@code ordinals} if new). */
    long ord(long seq, RunOrdinals ordinals);

    /** The stored envelope's length in bytes (what a row's size is), if the hook exists. */
    OptionalLong envelopeSize(long seq);

    /** The decoded envelope of a dead row's hook whose value did not decode, if the hook exists and decodes. */
    Optional<HookEnvelope> envelope(long seq);

    /** Hooks (or, looked up in a directory, rows of hooks) that were gone. */
    int missing();

    /** Hooks (or, looked up in a directory, rows of hooks) that did not decode. */
    int undecodable();
}

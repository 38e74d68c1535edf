package io.ankusa.api;

/** Where one (hook, sink) delivery stands, as a {@link StoredHook} read finds it. */
public enum DeliveryState {

    /**
     * Owed and waiting: for its first attempt (after ingest, a replay, a restart or a release from
     * the quarantine) or for a retry's backoff. When it is due is only in the due index's key, which a
     * read by hook cannot name without scanning the tenant's backlog; its attempts and last attempt
     * are known.
     */
    DUE,

    /** Claimed by a dispatcher and not yet settled. */
    IN_FLIGHT,

    /** A dead letter: it will not be attempted again unless replayed. */
    DEAD,

    /** Moved aside because its hook or delivery row does not decode (see {@code Queue.quarantine}). */
    QUARANTINED,

    /**
     * No longer owed: delivered, or removed (a purge, a drop after its endpoint was found gone). The
     * store keeps no delivery row for it; its attempt history says which.
     */
    FINISHED
}

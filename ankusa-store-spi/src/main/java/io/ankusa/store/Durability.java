package io.ankusa.store;

/** How durable a commit is when {@link Store#commit} returns. */
public enum Durability {
    /** On stable storage (fsync) before commit returns; survives a power loss. */
    SYNC,
    /**
     * Applied and visible, but may be lost whole (never in part) by a crash before the next
     * synced commit or flush.
     */
    ASYNC
}

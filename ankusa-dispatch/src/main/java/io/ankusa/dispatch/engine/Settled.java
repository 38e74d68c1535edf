package io.ankusa.dispatch.engine;

/** How one claimed row was settled. */
enum Settled {
    /** The sink took it: the row is gone. */
    DELIVERED,
    /** Due again later, as a retry. */
    RETRIED,
    /** Moved to the dead letters. */
    DEAD,
    /** Its hook was gone or did not decode: the row was dropped. */
    DROPPED
}

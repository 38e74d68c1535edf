package io.ankusa.cli.command;

/**
 * The {@code ankusa} command's exit codes, one per kind of failure, so that scripts can tell them
 * apart. Listed in {@code docs/cli.md}; a test pins every value.
 */
public enum ExitCode {
    /** The command did what it was asked. */
    OK(0),
    /** Something unexpected failed (an I/O error, a bug); the message says what. */
    FAILURE(1),
    /**
     * The arguments are wrong: unknown command or option, a missing or malformed value; also a
     * delivery {@code replay --seq --sink} names that is not a dead letter (nothing to replay).
     */
    USAGE(2),
    /** No store at {@code --store}; a read command never creates one. */
    NO_STORE(3),
    /** Another process (a running service, another command) has the store open. */
    STORE_LOCKED(4),
    /** The store was written by a newer release (its format, or a family this release does not know). */
    STORE_NEWER(5),
    /**
     * The tenant named with {@code --tenant} has never been seen by the store; also what {@code hook}
     * and {@code replay --seq --sink} exit with when the tenant holds no such hook or delivery.
     */
    UNKNOWN_TENANT(6),
    /** The store was written by another backend than {@code --backend} names. */
    BACKEND_MISMATCH(7),
    /** The store failed a checksum or holds data that cannot be decoded. */
    STORE_CORRUPT(8),
    /** The command would write where something already is (a checkpoint target, a store that is not a demo's). */
    TARGET_EXISTS(9),
    /** The store is at an older format: {@code ankusa migrate} upgrades it (read commands never migrate). */
    NEEDS_MIGRATION(10),
    /** {@code --url}: the admin API did not answer (refused connection, timeout, not the admin API). */
    UNREACHABLE(11),
    /**
     * {@code --url}: no token, or the admin API refused it (401), or its access policy does not allow the
     * action (403: no role, a viewer's mutation, a CSRF refusal).
     */
    UNAUTHORIZED(12);

    private final int code;

    ExitCode(int code) {
        this.code = code;
    }

    /** The process exit status. */
    public int code() {
        return code;
    }
}

package io.ankusa.jdbc;

import io.ankusa.api.AnkusaException;
import java.util.Objects;

/**
 * The outbox could not do what was asked of its database: {@link #reason()} says which step failed,
 * {@link #error()} is its stable code. The cause is the driver's {@link java.sql.SQLException} when
 * there is one. An {@link AnkusaOutbox#add} that throws it wrote nothing the caller can rely on: the
 * caller's transaction should be rolled back, as after any failed statement.
 */
public final class OutboxException extends AnkusaException {

    private static final long serialVersionUID = 1L;

    /** Which step of the outbox failed. */
    public enum Reason {
        /** A statement of the outbox (insert, read, delete, lock) failed in the database. */
        DATABASE("outbox_database"),
        /** The schema resource of a dialect could not be read from the module. */
        SCHEMA_UNREADABLE("outbox_schema_unreadable");

        private final String code;

        Reason(String code) {
            this.code = code;
        }

        /** {@return the stable machine-readable code, as {@link OutboxException#error()} returns it} */
        public String code() {
            return code;
        }
    }

    /** The step that failed. */
    private final Reason reason;

    OutboxException(Reason reason, String message, Throwable cause) {
        super(reason.code(), message, cause);
        this.reason = Objects.requireNonNull(reason, "reason");
    }

    /** {@return which step failed} */
    public Reason reason() {
        return reason;
    }
}

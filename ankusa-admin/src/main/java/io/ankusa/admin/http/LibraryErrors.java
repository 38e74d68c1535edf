package io.ankusa.admin.http;

import io.ankusa.api.AnkusaException;

/**
 * The HTTP status of a refusal of the library: its {@link AnkusaException#error()} code becomes the
 * body's {@code error} as it is; the status says whose problem it is.
 */
final class LibraryErrors {

    private LibraryErrors() {
    }

    static int status(AnkusaException e) {
        return switch (e.error()) {
            case "queue_closed", "queue_failed" -> 503;
            case "tenant_erasing" -> 409;
            case "invalid_hook" -> 400;
            default -> 500;
        };
    }
}

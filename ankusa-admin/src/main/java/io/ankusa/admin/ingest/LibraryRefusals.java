package io.ankusa.admin.ingest;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ankusa.admin.json.Nodes;
import io.ankusa.api.AnkusaException;
import io.ankusa.api.IngestOverloadedException;
import io.ankusa.api.InvalidHookException;
import io.ankusa.api.TenantLimitException;
import io.ankusa.api.TenantOverloadedException;
import java.time.Duration;
import java.util.Optional;

/**
 * The queue's refusals of a hook as the edge answers them: the library's {@code error} code in the
 * body as it is (and its {@code reason}, for an invalid hook or ingest admission), the status saying
 * whose problem it is, and {@code Retry-After} when trying again later can succeed.
 */
final class LibraryRefusals {

    /** How long a producer waits after the writer's queue was full. */
    static final long OVERLOADED_RETRY_SECONDS = 1;

    private LibraryRefusals() {
    }

    /** The answer to {@code e}, or empty for a failure the edge does not expect (a 500). */
    static Optional<IngestRefusal> of(AnkusaException e) {
        if (e instanceof InvalidHookException invalid) {
            ObjectNode body = Nodes.error(e.error(), e.getMessage());
            body.put("reason", invalid.reason().code());
            int status = invalid.reason() == InvalidHookException.Reason.PAYLOAD_TOO_LARGE ? 413 : 400;
            return Optional.of(new IngestRefusal(status, body));
        }
        if (e instanceof TenantOverloadedException overloaded) {
            ObjectNode body = Nodes.error(e.error(), e.getMessage());
            body.put("reason", overloaded.reason().code());
            // The tenant's own limits are the producer's to slow down for; a full node is the node's.
            int status = overloaded.reason() == TenantOverloadedException.Reason.NODE_FULL ? 503 : 429;
            return Optional.of(new IngestRefusal(status, body).retryAfterSeconds(seconds(overloaded.retryAfter())));
        }
        if (e instanceof TenantLimitException limit) {
            ObjectNode body = Nodes.object();
            body.put("error", e.error());
            return Optional.of(new IngestRefusal(503, body).retryAfterSeconds(seconds(limit.retryAfter())));
        }
        if (e instanceof IngestOverloadedException) {
            return Optional.of(IngestRefusal.of(503, e.error(), e.getMessage())
                    .retryAfterSeconds(OVERLOADED_RETRY_SECONDS));
        }
        return switch (e.error()) {
            case "tenant_erasing" -> Optional.of(IngestRefusal.of(409, e.error(), e.getMessage()));
            case "queue_closed", "queue_failed" -> Optional.of(IngestRefusal.of(503, e.error(), e.getMessage()));
            default -> Optional.empty();
        };
    }

    /** Whole seconds, rounded up, at least one. */
    static long seconds(Duration wait) {
        long millis = wait.toMillis();
        return Math.max(1, (millis + 999) / 1000);
    }
}

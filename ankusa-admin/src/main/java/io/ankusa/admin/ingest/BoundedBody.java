package io.ankusa.admin.ingest;

import io.ankusa.api.Hook;
import jakarta.servlet.http.HttpServletRequest;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Locale;

/**
 * Reads a request body of at most a limit: a {@code Content-Length} past it is refused before a
 * byte is read, and a body without one (chunked) is read only until it passes the limit.
 */
final class BoundedBody {

    private BoundedBody() {
    }

    /**
     * The most body bytes a hook with a payload of {@code payloadMaxBytes} can take: the payload six
     * times over (a JSON string may write each byte as a six-character escape; base64 takes only
     * 4/3), the headers' budget six times over, and 64 KiB for the rest of the document.
     */
    static long limit(int payloadMaxBytes) {
        return 6L * payloadMaxBytes + 6L * Hook.HEADERS_MAX_BYTES + 64 * 1024;
    }

    /** The body, as bytes: a JSON document of {@code application/json}. */
    static byte[] read(HttpServletRequest request, long limit) throws IOException {
        String type = request.getContentType();
        if (type == null || !type.toLowerCase(Locale.ROOT).startsWith("application/json")) {
            throw IngestRefusal.of(415, "unsupported_media_type", "a hook is sent as Content-Type: application/json");
        }
        long declared = request.getContentLengthLong();
        if (declared > limit) {
            throw tooLarge(limit);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(declared > 0 ? (int) declared : 8192);
        byte[] buffer = new byte[8192];
        try (InputStream in = request.getInputStream()) {
            int n;
            while ((n = in.read(buffer)) >= 0) {
                out.write(buffer, 0, n);
                if (out.size() > limit) {
                    throw tooLarge(limit);
                }
            }
        }
        return out.toByteArray();
    }

    private static IngestRefusal tooLarge(long limit) {
        return IngestRefusal.of(413, "too_large", "a request body is at most " + limit + " bytes");
    }
}

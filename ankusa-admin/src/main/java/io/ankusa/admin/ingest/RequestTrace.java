package io.ankusa.admin.ingest;

import io.ankusa.api.InvalidTraceContextException;
import io.ankusa.api.TraceContext;
import jakarta.servlet.http.HttpServletRequest;
import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * The trace context the edge stores with a posted hook: the producer's trace (its W3C
 * {@code traceparent} and {@code tracestate} headers, when they are valid) or a new one, with a
 * parent id of the edge's own, drawn at random for each request, as a server's span for the request
 * would be. Because no two requests share it, the stored hook tells the request that wrote it from a
 * repeat of it.
 */
final class RequestTrace {

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final HexFormat HEX = HexFormat.of();

    private RequestTrace() {
    }

    static TraceContext of(HttpServletRequest request) {
        String spanId = nonZeroHex(8);
        String traceparent = request.getHeader("traceparent");
        if (traceparent != null) {
            try {
                TraceContext producer = new TraceContext(traceparent, orEmpty(request.getHeader("tracestate")));
                String flags = producer.sampled() ? "01" : "00";
                return new TraceContext("00-" + producer.traceId() + "-" + spanId + "-" + flags, producer.tracestate());
            } catch (InvalidTraceContextException e) {
                // An invalid traceparent is ignored, as W3C Trace Context says: the edge starts a trace.
            }
        }
        return TraceContext.of("00-" + nonZeroHex(16) + "-" + spanId + "-01");
    }

    private static String orEmpty(String value) {
        return value == null ? "" : value;
    }

    private static String nonZeroHex(int bytes) {
        byte[] id = new byte[bytes];
        do {
            RANDOM.nextBytes(id);
        } while (allZero(id));
        return HEX.formatHex(id);
    }

    private static boolean allZero(byte[] id) {
        for (byte b : id) {
            if (b != 0) {
                return false;
            }
        }
        return true;
    }
}

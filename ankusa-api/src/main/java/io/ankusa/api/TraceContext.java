package io.ankusa.api;

import java.util.Objects;

/**
 * A W3C Trace Context (<a href="https://www.w3.org/TR/trace-context/">trace-context</a>): the
 * {@code traceparent} of the span a hook was produced under, and its {@code tracestate} (empty
 * when there is none). The queue stores it with the hook, so every delivery attempt, on whichever
 * node and after whichever restart, continues the producer's trace.
 *
 * <p>Valid by construction: the traceparent is {@code version-traceid-parentid-flags} in lower-case
 * hex (2, 32, 16 and 2 digits), with a version other than {@code ff}, a trace id and a parent id
 * other than all zeros, exactly 55 characters for version {@code 00} (a later version may add
 * fields after a {@code '-'}). The tracestate is at most {@value #TRACESTATE_MAX_CHARS} characters
 * of printable ASCII (the specification's limit on what a vendor must propagate). Anything else
 * is refused with {@link InvalidTraceContextException}.
 *
 * @param traceparent the {@code traceparent} header value
 * @param tracestate  the {@code tracestate} header value, or the empty string for none
 */
public record TraceContext(String traceparent, String tracestate) {

    /** Longest tracestate kept, in characters. */
    public static final int TRACESTATE_MAX_CHARS = 512;

    /** Length of a version-00 traceparent. */
    private static final int TRACEPARENT_LENGTH = 55;

    /**
     * Validates.
     *
     * @param traceparent the {@code traceparent} header value
     * @param tracestate  the {@code tracestate} header value, or the empty string for none
     * @throws InvalidTraceContextException if either is malformed
     */
    public TraceContext {
        Objects.requireNonNull(traceparent, "traceparent");
        Objects.requireNonNull(tracestate, "tracestate");
        checkTraceparent(traceparent);
        checkTracestate(tracestate);
    }

    /**
     * A context without a tracestate.
     *
     * @param traceparent the {@code traceparent} header value
     * @return the context
     * @throws InvalidTraceContextException if the traceparent is malformed
     */
    public static TraceContext of(String traceparent) {
        return new TraceContext(traceparent, "");
    }

    /** {@return the 32 hex digits of the trace id} */
    public String traceId() {
        return traceparent.substring(3, 35);
    }

    /** {@return the 16 hex digits of the parent span's id} */
    public String parentId() {
        return traceparent.substring(36, 52);
    }

    /** {@return whether the producer sampled its trace (flag bit 0)} */
    public boolean sampled() {
        return (Character.digit(traceparent.charAt(54), 16) & 1) != 0;
    }

    private static void checkTraceparent(String tp) {
        if (tp.length() < TRACEPARENT_LENGTH) {
            throw malformed("traceparent is " + tp.length() + " characters; at least " + TRACEPARENT_LENGTH, tp);
        }
        if (tp.charAt(2) != '-' || tp.charAt(35) != '-' || tp.charAt(52) != '-') {
            throw malformed("traceparent fields are not separated by '-' at 2, 35 and 52", tp);
        }
        if (!hex(tp, 0, 2) || !hex(tp, 3, 35) || !hex(tp, 36, 52) || !hex(tp, 53, 55)) {
            throw malformed("traceparent fields are not lower-case hex", tp);
        }
        String version = tp.substring(0, 2);
        if ("ff".equals(version)) {
            throw malformed("traceparent version ff is invalid", tp);
        }
        if ("00".equals(version) ? tp.length() != TRACEPARENT_LENGTH
                : tp.length() > TRACEPARENT_LENGTH && tp.charAt(TRACEPARENT_LENGTH) != '-') {
            throw malformed("traceparent has trailing characters", tp);
        }
        if (zeros(tp, 3, 35)) {
            throw malformed("traceparent trace id is all zeros", tp);
        }
        if (zeros(tp, 36, 52)) {
            throw malformed("traceparent parent id is all zeros", tp);
        }
    }

    private static void checkTracestate(String ts) {
        if (ts.length() > TRACESTATE_MAX_CHARS) {
            throw new InvalidTraceContextException("tracestate is " + ts.length() + " characters; at most "
                    + TRACESTATE_MAX_CHARS);
        }
        for (int i = 0; i < ts.length(); i++) {
            char c = ts.charAt(i);
            if (c < 0x20 || c > 0x7E) {
                throw new InvalidTraceContextException("tracestate holds a character outside printable ASCII at "
                        + i);
            }
        }
    }

    private static boolean hex(String s, int from, int to) {
        for (int i = from; i < to; i++) {
            char c = s.charAt(i);
            if (!(c >= '0' && c <= '9' || c >= 'a' && c <= 'f')) {
                return false;
            }
        }
        return true;
    }

    private static boolean zeros(String s, int from, int to) {
        for (int i = from; i < to; i++) {
            if (s.charAt(i) != '0') {
                return false;
            }
        }
        return true;
    }

    private static InvalidTraceContextException malformed(String what, String tp) {
        // The value is quoted only up to a bound: it came from outside.
        String shown = tp.length() > 64 ? tp.substring(0, 64) + "…" : tp;
        return new InvalidTraceContextException(what + ": '" + shown.replaceAll("[^\\x20-\\x7E…]", "?") + "'");
    }
}

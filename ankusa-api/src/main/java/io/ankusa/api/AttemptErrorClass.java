package io.ankusa.api;

import java.util.Optional;

/**
 * Why a delivery attempt failed, as a small fixed set of classes an operator can filter and count
 * by (the attempt history keeps it next to the HTTP status and the sink's free-text reason).
 * {@link #code()} is the stable name used in storage, JSON and the CLI.
 */
public enum AttemptErrorClass {
    /** No error: the attempt delivered. */
    NONE("none"),
    /** The receiver answered 3xx (redirects are not followed). */
    HTTP_3XX("http_3xx"),
    /** The receiver answered 4xx. */
    HTTP_4XX("http_4xx"),
    /** The receiver answered 5xx. */
    HTTP_5XX("http_5xx"),
    /** The receiver answered a status outside 2xx–5xx. */
    HTTP_OTHER("http_other"),
    /** No response within the request timeout. */
    TIMEOUT("timeout"),
    /** The connection could not be made (refused, reset while connecting, or the connect timeout). */
    CONNECT("connect"),
    /** The endpoint's host name did not resolve. */
    DNS("dns"),
    /** No free connection to the host within the timeout. */
    POOL("pool"),
    /** An I/O error after the connection was made. */
    IO("io"),
    /** The address guard refused the endpoint's address (SSRF protection); nothing was sent. */
    SSRF_REFUSED("ssrf_refused"),
    /** The request could not be built (a URL or header the sink cannot send, an unsignable id). */
    INVALID_REQUEST("invalid_request"),
    /** The application has no endpoint for the delivery's tenant and sink. */
    ENDPOINT_UNKNOWN("endpoint_unknown"),
    /** Looking up the endpoint failed. */
    ENDPOINT_LOOKUP("endpoint_lookup"),
    /** The endpoint is disabled; nothing was sent. */
    ENDPOINT_DISABLED("endpoint_disabled"),
    /** The sink gave no outcome within the pipeline's sink deadline. */
    SINK_TIMEOUT("sink_timeout"),
    /** The sink broke its contract (threw, returned no stage, failed it, or no outcome). */
    SINK_FAILED("sink_failed"),
    /** A failure the sink did not classify. */
    OTHER("other");

    private final String code;

    AttemptErrorClass(String code) {
        this.code = code;
    }

    /** {@return the stable name, such as {@code http_5xx} or {@code ssrf_refused}} */
    public String code() {
        return code;
    }

    /**
     * The class of an HTTP answer with {@code status}: {@link #NONE} for 2xx, else by its hundred.
     *
     * @param status the HTTP status code
     * @return its class
     */
    public static AttemptErrorClass ofStatus(int status) {
        if (status >= 200 && status <= 299) {
            return NONE;
        }
        if (status >= 300 && status <= 399) {
            return HTTP_3XX;
        }
        if (status >= 400 && status <= 499) {
            return HTTP_4XX;
        }
        if (status >= 500 && status <= 599) {
            return HTTP_5XX;
        }
        return HTTP_OTHER;
    }

    /**
     * The class named {@code code}.
     *
     * @param code a stable name, as {@link #code()} returns it
     * @return the class, or empty for a name this release does not know
     */
    public static Optional<AttemptErrorClass> ofCode(String code) {
        for (AttemptErrorClass c : values()) {
            if (c.code.equals(code)) {
                return Optional.of(c);
            }
        }
        return Optional.empty();
    }
}

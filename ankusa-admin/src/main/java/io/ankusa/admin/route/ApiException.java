package io.ankusa.admin.route;

import java.util.Objects;

/**
 * A request the API answers with an error: its HTTP status and a typed body
 * {@code {"error": code, "message": message}}. The message may quote what the caller sent; it is
 * written as a JSON string like every other value, never as markup.
 */
public final class ApiException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** The code of a malformed request (a bad parameter, body or path value). */
    public static final String BAD_REQUEST = "bad_request";

    /** The code of something that does not exist or that the caller may not see. */
    public static final String NOT_FOUND = "not_found";

    /** The code of a request the caller's role does not allow. */
    public static final String FORBIDDEN = "forbidden";

    private final int status;
    private final String code;

    /**
     * An error answer.
     *
     * @param status  the HTTP status
     * @param code    the error code
     * @param message what went wrong, for a person
     */
    public ApiException(int status, String code, String message) {
        super(message, null, false, false);
        this.status = status;
        this.code = Objects.requireNonNull(code, "code");
    }

    /**
     * A 400 {@code bad_request}.
     *
     * @param message what is wrong with the request
     * @return the exception
     */
    public static ApiException badRequest(String message) {
        return new ApiException(400, BAD_REQUEST, message);
    }

    /**
     * A 404 {@code not_found}.
     *
     * @param message what was not found
     * @return the exception
     */
    public static ApiException notFound(String message) {
        return new ApiException(404, NOT_FOUND, message);
    }

    /**
     * The HTTP status.
     *
     * @return the status
     */
    public int status() {
        return status;
    }

    /**
     * The error code.
     *
     * @return the code
     */
    public String code() {
        return code;
    }
}

package io.ankusa.admin;

import io.ankusa.admin.http.JsonResponses;
import io.ankusa.admin.json.Nodes;
import java.nio.ByteBuffer;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;

/**
 * The own-port server's answer to what Jetty refuses before the API sees it (a malformed request
 * line, headers too large, a URI it will not parse): the API's typed JSON error with its security
 * headers, never Jetty's HTML page or a stack trace.
 */
final class JsonErrorHandler extends ErrorHandler {

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        Object attribute = request.getAttribute(ERROR_STATUS);
        int status = attribute instanceof Integer code ? code : HttpStatus.INTERNAL_SERVER_ERROR_500;
        response.setStatus(status);
        HttpFields.Mutable headers = response.getHeaders();
        headers.put("Content-Type", JsonResponses.CONTENT_TYPE);
        headers.put("X-Content-Type-Options", "nosniff");
        headers.put("Content-Security-Policy", "default-src 'none'; frame-ancestors 'none'");
        headers.put("X-Frame-Options", "DENY");
        headers.put("Referrer-Policy", "no-referrer");
        headers.put("Cache-Control", "no-store");
        response.write(true, ByteBuffer.wrap(body(status)), callback);
        return true;
    }

    private static byte[] body(int status) {
        String code = switch (status) {
            case 400 -> "bad_request";
            case 404 -> "not_found";
            case 405 -> "method_not_allowed";
            case 413, 414, 431 -> "too_large";
            default -> status >= 500 ? "internal" : "bad_request";
        };
        return Nodes.bytes(Nodes.error(code, "HTTP " + status));
    }
}

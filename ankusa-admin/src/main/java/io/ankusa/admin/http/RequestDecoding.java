package io.ankusa.admin.http;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import io.ankusa.admin.json.Nodes;
import io.ankusa.admin.route.ApiException;
import jakarta.servlet.http.HttpServletMapping;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.MappingMatch;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What a request says, decoded strictly: the path below the mount point as percent-decoded
 * segments (so a tenant id may hold {@code /}, sent as {@code %2F}), the query parameters, and a
 * mutation's JSON body (at most {@value #MAX_BODY_BYTES} bytes). Malformed percent escapes, bytes
 * that are not UTF-8, a parameter given twice and a body that is not a JSON object are 400s.
 */
final class RequestDecoding {

    static final int MAX_BODY_BYTES = 64 * 1024;

    private RequestDecoding() {
    }

    /**
     * The decoded segments of the path below the servlet's mount point: {@code ["v1", "stats"]}.
     * Read from the raw request URI (a container decodes {@code %2F} in the servlet path, which would
     * split a tenant id), less the context path and, for a {@code /prefix/*} mapping, as many segments
     * as the servlet path has.
     */
    static List<String> path(HttpServletRequest request) {
        String raw = request.getRequestURI();
        String context = request.getContextPath();
        if (!raw.startsWith(context)) {
            throw ApiException.badRequest("the request path is outside the servlet's context");
        }
        String rest = raw.substring(context.length());
        // Mapped at "/" (or the context root) the servlet path is the whole path and the mount is the
        // context; mapped at "/prefix/*" the servlet path is the mount.
        HttpServletMapping mapping = request.getHttpServletMapping();
        MappingMatch match = mapping == null ? null : mapping.getMappingMatch();
        long mountSegments = match == MappingMatch.DEFAULT || match == MappingMatch.CONTEXT_ROOT ? 0
                : request.getServletPath().chars().filter(c -> c == '/').count();
        List<String> segments = new ArrayList<>(List.of(rest.split("/", -1)));
        if (!segments.isEmpty() && segments.get(0).isEmpty()) {
            segments.remove(0);
        }
        if (segments.size() < mountSegments) {
            throw ApiException.notFound("no such route");
        }
        List<String> below = new ArrayList<>();
        for (String segment : segments.subList((int) mountSegments, segments.size())) {
            int params = segment.indexOf(';');
            below.add(decode(params >= 0 ? segment.substring(0, params) : segment, false));
        }
        return below;
    }

    /**
     * The mount point's path as the browser sees it ({@code ""} at the root, {@code "/admin"} for a
     * {@code /admin/*} mapping), for the dashboard's links.
     */
    static String mount(HttpServletRequest request) {
        HttpServletMapping mapping = request.getHttpServletMapping();
        MappingMatch match = mapping == null ? null : mapping.getMappingMatch();
        String context = request.getContextPath();
        return match == MappingMatch.DEFAULT || match == MappingMatch.CONTEXT_ROOT ? context
                : context + request.getServletPath();
    }

    /** The query parameters, decoded ({@code +} is a space); a name given twice is a 400. */
    static Map<String, String> query(String rawQuery) {
        Map<String, String> out = new LinkedHashMap<>();
        if (rawQuery == null || rawQuery.isEmpty()) {
            return out;
        }
        for (String pair : rawQuery.split("&", -1)) {
            if (pair.isEmpty()) {
                continue;
            }
            int eq = pair.indexOf('=');
            String name = decode(eq < 0 ? pair : pair.substring(0, eq), true);
            String value = eq < 0 ? "" : decode(pair.substring(eq + 1), true);
            if (out.putIfAbsent(name, value) != null) {
                throw ApiException.badRequest("parameter '" + name + "' is given more than once");
            }
        }
        return out;
    }

    /** A mutation's JSON object body; an empty body is an empty object. */
    static JsonNode body(HttpServletRequest request) throws IOException {
        byte[] bytes = readAtMost(request.getInputStream(), MAX_BODY_BYTES);
        if (bytes.length == 0) {
            return Nodes.object();
        }
        String type = request.getContentType();
        if (type == null || !type.toLowerCase(Locale.ROOT).startsWith("application/json")) {
            throw ApiException.badRequest("a request body is JSON, sent as Content-Type: application/json");
        }
        JsonNode node;
        try {
            node = Nodes.read(bytes);
        } catch (JacksonException e) {
            throw ApiException.badRequest("the body is not JSON");
        }
        if (node == null || !node.isObject()) {
            throw ApiException.badRequest("the body is a JSON object");
        }
        return node;
    }

    private static byte[] readAtMost(InputStream in, int max) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buffer = new byte[8192];
        int n;
        while ((n = in.read(buffer)) >= 0) {
            out.write(buffer, 0, n);
            if (out.size() > max) {
                throw new ApiException(413, "too_large", "a request body is at most " + max + " bytes");
            }
        }
        return out.toByteArray();
    }

    /** Strict percent-decoding to UTF-8 text. */
    static String decode(String text, boolean plusIsSpace) {
        ByteBuffer bytes = ByteBuffer.allocate(text.length() * 4);
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '%') {
                if (i + 2 >= text.length()) {
                    throw ApiException.badRequest("a percent escape is cut short");
                }
                int hi = Character.digit(text.charAt(i + 1), 16);
                int lo = Character.digit(text.charAt(i + 2), 16);
                if (hi < 0 || lo < 0) {
                    throw ApiException.badRequest("a percent escape is two hex digits");
                }
                bytes.put((byte) (hi << 4 | lo));
                i += 2;
            } else if (c == '+' && plusIsSpace) {
                bytes.put((byte) ' ');
            } else {
                bytes.put(String.valueOf(c).getBytes(StandardCharsets.UTF_8));
            }
        }
        bytes.flip();
        try {
            CharBuffer chars = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(bytes);
            return chars.toString();
        } catch (CharacterCodingException e) {
            throw ApiException.badRequest("a path or parameter value is not UTF-8");
        }
    }
}

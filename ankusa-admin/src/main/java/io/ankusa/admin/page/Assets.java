package io.ankusa.admin.page;

import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.Optional;

/**
 * The dashboard's files under {@code /assets/}: its own stylesheet and script (beside this class)
 * and the htmx and uPlot builds of their webjars, read from the jar once and served with their
 * content type, {@code nosniff} and a cache lifetime. Only the names listed here are served.
 */
public final class Assets {

    private static final String WEBJARS = "META-INF/resources/webjars/";

    /** One file: its bytes and its content type. */
    record Asset(byte[] bytes, String type) {
    }

    private final Map<String, Asset> files;

    /** Reads the files from the jar. */
    public Assets() {
        files = Map.of(
                "app.css", own("app.css", "text/css; charset=utf-8"),
                "app.js", own("app.js", "text/javascript; charset=utf-8"),
                "htmx.min.js", webjar("htmx.org/2.0.7/dist/htmx.min.js", "text/javascript; charset=utf-8"),
                "uPlot.iife.min.js", webjar("uplot/1.6.30/dist/uPlot.iife.min.js", "text/javascript; charset=utf-8"),
                "uPlot.min.css", webjar("uplot/1.6.30/dist/uPlot.min.css", "text/css; charset=utf-8"));
    }

    Optional<Asset> find(String name) {
        return Optional.ofNullable(files.get(name));
    }

    /**
     * Writes {@code name}, or a 404 when it is not one of the dashboard's files.
     *
     * @param name     the file's name below {@code /assets/}
     * @param response the response
     * @throws IOException when the client went away
     */
    public void serve(String name, HttpServletResponse response) throws IOException {
        Optional<Asset> asset = find(name);
        response.setHeader("X-Content-Type-Options", "nosniff");
        if (asset.isEmpty()) {
            response.setStatus(404);
            response.setHeader("Cache-Control", "no-store");
            response.setContentType("text/plain; charset=utf-8");
            response.getOutputStream().close();
            return;
        }
        response.setStatus(200);
        response.setContentType(asset.get().type());
        // The files change only with a new release of the module: a viewer's browser keeps them an hour.
        response.setHeader("Cache-Control", "public, max-age=3600");
        response.setContentLength(asset.get().bytes().length);
        try (OutputStream out = response.getOutputStream()) {
            out.write(asset.get().bytes());
        }
    }

    private static Asset own(String name, String type) {
        try (InputStream in = Assets.class.getResourceAsStream(name)) {
            return new Asset(required(in, name).readAllBytes(), type);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Asset webjar(String path, String type) {
        try (InputStream in = Assets.class.getClassLoader().getResourceAsStream(WEBJARS + path)) {
            return new Asset(required(in, WEBJARS + path).readAllBytes(), type);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static InputStream required(InputStream in, String name) {
        if (in == null) {
            throw new IllegalStateException("the dashboard's asset " + name + " is missing from the class path");
        }
        return in;
    }
}

package io.ankusa.admin.page;

import com.samskivert.mustache.Mustache;
import com.samskivert.mustache.Template;
import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The pages' Mustache templates, beside this class, compiled once each. Every {@code {{value}}} is
 * HTML-escaped ({@code & < > " ' ` =}), so a producer's string is text in an element or inside a
 * quoted attribute; the templates use no unescaped {@code {{{value}}}}, and a missing value renders
 * as nothing.
 */
final class Templates {

    private final Mustache.Compiler compiler = Mustache.compiler().escapeHTML(true).defaultValue("")
            .emptyStringIsFalse(true).zeroIsFalse(true)
            .withLoader(Templates::source);
    private final Map<String, Template> compiled = new ConcurrentHashMap<>();

    String render(String name, Map<String, Object> model) {
        return compiled.computeIfAbsent(name, n -> compiler.compile(source(n))).execute(model);
    }

    private static Reader source(String name) {
        String file = name + ".mustache";
        try (InputStream in = Templates.class.getResourceAsStream(file)) {
            if (in == null) {
                throw new IllegalStateException("the template " + file + " is missing");
            }
            return new StringReader(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

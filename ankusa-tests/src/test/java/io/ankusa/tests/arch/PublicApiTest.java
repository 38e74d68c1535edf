package io.ankusa.tests.arch;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.module.FindException;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReference;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * What each Ankusa module lets its users reach, compared with a committed list
 * ({@code src/test/resources/api/public-api.txt}): the modules it requires transitively, every
 * exported package (qualified exports with their targets) and every public type in it, nested ones
 * included. Widening the API (a new public type, a new export, a new {@code requires transitive})
 * fails here until the list is updated in the same commit, so it is a visible change.
 *
 * <p>The modules are found on this module's class path with a {@link ModuleFinder}; their
 * classes are listed from the module's own artifact and loaded without initialising them. The
 * Spring Boot starter is an automatic module (its jar names one): all its packages are listed, as
 * all are exported. It is found in its jar, so run this test in the {@code verify} phase.
 */
class PublicApiTest {

    private static final String EXPECTED = "/api/public-api.txt";

    @Test
    void theExportedPackagesAndPublicTypesAreTheCommittedList() throws IOException {
        String actual = listing();
        Path written = Path.of("target", "public-api.actual.txt");
        Files.createDirectories(written.getParent());
        Files.writeString(written, actual);
        String expected;
        try (InputStream in = Objects.requireNonNull(PublicApiTest.class.getResourceAsStream(EXPECTED), EXPECTED)) {
            expected = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        assertThat(actual).as("the public API changed; if that is intended, copy " + written.toAbsolutePath()
                + " over ankusa-tests/src/test/resources" + EXPECTED).isEqualTo(expected);
    }

    @Test
    void theListingSeesEveryModuleAndTheQueueApi() throws IOException {
        String actual = listing();
        assertThat(actual).contains("module io.ankusa.api", "module io.ankusa.queue", "module io.ankusa.dispatch",
                "module io.ankusa.store", "module io.ankusa.cli",
                "module io.ankusa.spring.boot\n  exports io.ankusa.spring.boot (automatic module)\n", "  exports io.ankusa.queue\n",
                "    io.ankusa.queue.Queue\n", "    io.ankusa.queue.StoreUpgrade.Step\n")
                .doesNotContain("io.ankusa.queue.EngineQueue", "io.ankusa.dispatch.engine.DispatchPipeline");
    }

    private static String listing() throws IOException {
        TreeMap<String, ModuleReference> modules = new TreeMap<>();
        for (String entry : System.getProperty("java.class.path").split(java.io.File.pathSeparator)) {
            Path path = Path.of(entry);
            if (!Files.exists(path)) {
                continue;
            }
            try {
                for (ModuleReference ref : ModuleFinder.of(path).findAll()) {
                    if (ref.descriptor().name().startsWith("io.ankusa.")) {
                        modules.put(ref.descriptor().name(), ref);
                    }
                }
            } catch (FindException notAModule) {
                // a jar whose name gives no module name (native libraries): not ours
            }
        }
        StringBuilder out = new StringBuilder();
        for (ModuleReference ref : modules.values()) {
            ModuleDescriptor descriptor = ref.descriptor();
            out.append("module ").append(descriptor.name()).append('\n');
            descriptor.requires().stream()
                    .filter(r -> r.modifiers().contains(ModuleDescriptor.Requires.Modifier.TRANSITIVE))
                    .map(ModuleDescriptor.Requires::name).sorted()
                    .forEach(name -> out.append("  requires transitive ").append(name).append('\n'));
            List<String> classes = classesIn(ref);
            if (descriptor.isAutomatic()) {
                // A class-path module (the Spring Boot starter): it exports every package it has.
                descriptor.packages().stream().sorted().forEach(pkg -> {
                    out.append("  exports ").append(pkg).append(" (automatic module)\n");
                    publicTypes(classes, pkg).forEach(type -> out.append("    ").append(type).append('\n'));
                });
                continue;
            }
            descriptor.exports().stream().sorted(Comparator.comparing(ModuleDescriptor.Exports::source)).forEach(e -> {
                out.append("  exports ").append(e.source());
                if (e.isQualified()) {
                    out.append(" to ").append(String.join(", ", new TreeSet<>(e.targets())));
                }
                out.append('\n');
                publicTypes(classes, e.source()).forEach(type -> out.append("    ").append(type).append('\n'));
            });
        }
        return out.toString();
    }

    private static List<String> classesIn(ModuleReference ref) throws IOException {
        List<String> out = new ArrayList<>();
        try (var reader = ref.open(); Stream<String> names = reader.list()) {
            names.filter(n -> n.endsWith(".class") && !n.endsWith("module-info.class") && !n.endsWith("package-info.class"))
                    .map(n -> n.substring(0, n.length() - ".class".length()).replace('/', '.'))
                    .forEach(out::add);
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        return out;
    }

    private static TreeSet<String> publicTypes(List<String> classes, String pkg) {
        TreeSet<String> out = new TreeSet<>();
        for (String name : classes) {
            if (!name.startsWith(pkg + ".") || name.indexOf('.', pkg.length() + 1) >= 0) {
                continue;
            }
            Class<?> type;
            try {
                type = Class.forName(name, false, PublicApiTest.class.getClassLoader());
            } catch (ClassNotFoundException e) {
                throw new AssertionError(name + " is in the module but not on the class path", e);
            }
            if (reachable(type)) {
                out.add(type.getCanonicalName());
            }
        }
        return out;
    }

    /** Public, and so is every type it is declared in (anonymous and local classes are not). */
    private static boolean reachable(Class<?> type) {
        for (Class<?> t = type; t != null; t = t.getDeclaringClass()) {
            if (!Modifier.isPublic(t.getModifiers()) || t.isAnonymousClass() || t.isLocalClass()) {
                return false;
            }
        }
        return true;
    }
}

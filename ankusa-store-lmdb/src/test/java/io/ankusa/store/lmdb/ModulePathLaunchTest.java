package io.ankusa.store.lmdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A program that is itself a named module opens an lmdb store through {@link io.ankusa.store.Stores},
 * in a fresh JVM whose module path holds the backend and all its dependencies, with no JVM flag.
 * Surefire's own module-path run keeps jnr-ffi on the class path and boots from the unnamed
 * module, which hides missing modules (ASM) from the graph; this launch does not.
 *
 * <p>Only {@code org.lmdbjava:native} (the LMDB binaries) stays on the class path: its file name
 * derives the module name {@code native}, a keyword, which the module system refuses.
 */
class ModulePathLaunchTest {

    private static final Pattern DEPENDENCY_JAR =
            Pattern.compile("(lmdbjava|jnr-[a-z0-9]+|jffi|asm(-[a-z]+)?|ankusa-store-spi)-[0-9].*\\.jar");

    @TempDir
    Path dir;

    @Test
    void aNamedModuleOpensAnLmdbStoreWithoutJvmFlags() throws Exception {
        Path bin = Path.of(System.getProperty("java.home"), "bin");
        assumeTrue(Files.isExecutable(bin.resolve("javac")), "needs a JDK");
        List<Path> modulePath = new ArrayList<>();
        List<Path> classPath = new ArrayList<>();
        for (Path entry : testRuntimePath()) {
            String name = entry.getFileName().toString();
            if (name.startsWith("native-") && entry.toString().contains("lmdbjava")) {
                classPath.add(entry);
            } else if (DEPENDENCY_JAR.matcher(name).matches() || isModuleClassesOf(entry, "ankusa-store-lmdb")
                    || isModuleClassesOf(entry, "ankusa-store-spi")) {
                modulePath.add(entry);
            }
        }
        assertThat(classPath).as("the LMDB binaries jar").hasSize(1);

        Path source = dir.resolve("src");
        Files.createDirectories(source.resolve("smoke"));
        Files.writeString(source.resolve("module-info.java"), "module smoke { requires io.ankusa.store; }\n");
        Files.writeString(source.resolve("smoke/Main.java"), String.join("\n",
                "package smoke;",
                "import io.ankusa.store.*;",
                "import java.nio.file.Path;",
                "import java.util.List;",
                "public final class Main {",
                "    public static void main(String[] args) {",
                "        List<FamilySpec> families = List.of(FamilySpec.plain(\"p\"), FamilySpec.counter(\"c\"));",
                "        try (Store store = Stores.open(\"lmdb\", StoreOptions.create(Path.of(args[0]), families))) {",
                "            store.commit(new WriteBatch().put(\"p\", new byte[] {1}, new byte[] {2})",
                "                    .merge(\"c\", new byte[] {1}, 5), Durability.SYNC);",
                "            Module lmdbjava = ModuleLayer.boot().findModule(\"lmdbjava\").orElseThrow();",
                "            System.out.println(\"backend=\" + store.getClass().getModule().getName()",
                "                    + \" value=\" + store.get(\"p\", new byte[] {1}).orElseThrow()[0]",
                "                    + \" counter=\" + store.counter(\"c\", new byte[] {1})",
                "                    + \" javaNioOpen=\" + Object.class.getModule().isOpen(\"java.nio\", lmdbjava));",
                "        }",
                "    }",
                "}",
                ""));
        Path classes = dir.resolve("classes");
        String compiled = run(bin.resolve("javac").toString(), "-d", classes.toString(),
                "--module-path", join(modulePath),
                source.resolve("module-info.java").toString(), source.resolve("smoke/Main.java").toString());
        assertThat(compiled).isEmpty();

        List<Path> launchPath = new ArrayList<>(modulePath);
        launchPath.add(0, classes);
        String output = run(bin.resolve("java").toString(),
                "--module-path", join(launchPath), "--class-path", join(classPath),
                "--module", "smoke/smoke.Main", dir.resolve("store").toString());
        assertThat(output).contains("backend=io.ankusa.store.lmdb value=2 counter=5 javaNioOpen=false");
    }

    /** Every entry of this JVM's module path and class path. */
    private static Set<Path> testRuntimePath() {
        Set<Path> entries = new LinkedHashSet<>();
        for (String property : List.of("jdk.module.path", "java.class.path")) {
            String value = System.getProperty(property, "");
            for (String entry : value.split(Pattern.quote(File.pathSeparator))) {
                if (!entry.isBlank()) {
                    entries.add(Path.of(entry));
                }
            }
        }
        return entries;
    }

    private static boolean isModuleClassesOf(Path entry, String module) {
        return entry.endsWith(Path.of(module, "target", "classes"));
    }

    private static String join(List<Path> paths) {
        return paths.stream().map(Path::toString).collect(Collectors.joining(File.pathSeparator));
    }

    /** Runs a command; returns its output; fails unless it exits 0 within two minutes. */
    private static String run(String... command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        byte[] output = process.getInputStream().readAllBytes();
        assertThat(process.waitFor(2, TimeUnit.MINUTES)).as("%s finished", command[0]).isTrue();
        String text = new String(output, StandardCharsets.UTF_8);
        assertThat(process.exitValue()).as("exit of %s; output:%n%s", String.join(" ", command), text).isZero();
        return text;
    }
}

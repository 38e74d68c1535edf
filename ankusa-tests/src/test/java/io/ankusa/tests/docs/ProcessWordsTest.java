package io.ankusa.tests.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The repository speaks of itself: its source, test, build and docs files say what is true and
 * why, never which work period, which tracker item or which person brought a change about, nor
 * where on one developer's host something ran. A reader of the code has none of that context, and
 * it goes stale the day it is written; the behaviour and its reason do not. So this fails, listing
 * {@code file:line: text}, for any of: an issue or session number, a reference to who leads, a
 * path under the system's scratch directory, a reference to the host a figure was taken on, and
 * the note of an attempt that was not merged.
 *
 * <p>Scanned: every file Git knows (tracked, or untracked and not ignored), or without Git every
 * file outside {@code target/}, {@code .git/} and {@code .mvn/}, whose name ends in one of
 * {@link #EXTENSIONS}, plus the launcher {@code ankusa} and {@code .ci/run}. Not scanned: the
 * changelog, which records history on purpose, and {@code ankusa-bench/results/}, raw bench output
 * kept as it was printed. The patterns are put together from pieces so that this file, which is
 * scanned too, does not match itself.
 */
class ProcessWordsTest {

    /** The endings of the scanned files' names. */
    static final Set<String> EXTENSIONS = Set.of(
            ".java", ".md", ".xml", ".sh", ".properties", ".yml", ".yaml", ".json", ".html", ".js", ".css");

    /** Scanned whatever their names end in (repository-relative, with {@code /}). */
    static final Set<String> NAMED = Set.of("ankusa", ".ci/run");

    /** Never scanned: a file, or a folder when it ends in {@code /}. */
    static final List<String> EXCLUDED = List.of("CHANGELOG.md", "ankusa-bench/results/");

    /** Folders a walk without Git never enters. */
    private static final Set<String> UNWALKED = Set.of("target", ".git", ".mvn");

    /** The process words, case-insensitive. */
    static final List<Pattern> PATTERNS = Stream.of(
                    "\\b" + "issue" + "s? [0-9]+",
                    "\\b" + "session" + "s? [0-9]+",
                    "\\bthe" + " lead\\b",
                    "/" + "tmp" + "/",
                    "\\bthis" + " machine\\b",
                    "tried" + " and not" + " merged")
            .map(p -> Pattern.compile(p, Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE))
            .toList();

    @Test
    void noScannedFileOfTheRepositoryNamesTheProcessThatMadeIt() {
        List<String> files = files(ReadmeTest.ROOT);

        assertThat(files).as("files scanned").contains("pom.xml", "ankusa", ".ci/run",
                "ankusa-tests/src/test/java/io/ankusa/tests/docs/ProcessWordsTest.java");
        assertThat(scan(ReadmeTest.ROOT, files)).as("process words (file:line: text)").isEmpty();
    }

    @Test
    void aPlantedWordIsReportedWithItsFileAndLine(@TempDir Path root) throws IOException {
        Files.createDirectories(root.resolve("src"));
        Files.writeString(root.resolve("src/Planted.java"), "class Planted {\n    // as agreed in Sess" + "ion 7\n}\n");
        Files.writeString(root.resolve("src/Clean.java"), "class Clean {\n    // a retried row keeps its ordinal\n}\n");
        Files.writeString(root.resolve("notes.txt"), "see iss" + "ue 3\n");

        List<String> files = files(root);

        assertThat(files).containsExactly("src/Clean.java", "src/Planted.java");
        assertThat(scan(root, files)).containsExactly("src/Planted.java:2: // as agreed in Sess" + "ion 7");
    }

    @Test
    void everyPatternIsReported(@TempDir Path root) throws IOException {
        List<String> planted = List.of("Iss" + "ue 12, case 5", "sess" + "ions 8 and 9", "as the" + " lead asked",
                "written to /" + "tmp/x.out", "on this" + " machine", "tr" + "ied and not merged");
        Files.writeString(root.resolve("all.md"), String.join("\n", planted) + "\n");

        assertThat(scan(root, files(root))).hasSize(planted.size());
    }

    @Test
    void ordinaryWordsAreNotReported(@TempDir Path root) throws IOException {
        Files.writeString(root.resolve("words.md"), String.join("\n",
                "session.timeout.ms=6000", "receipts issued 3 at a time", "the leader of the group",
                "a tmpfs mounted under /tmpfs", "a machine-readable reason", "the issue tracker",
                "tried again and merged", "a lead byte") + "\n");

        assertThat(scan(root, files(root))).isEmpty();
    }

    @Test
    void theChangelogBenchResultsAndBuildOutputAreNotScanned(@TempDir Path root) throws IOException {
        for (String file : List.of("CHANGELOG.md", "ankusa-bench/results/run.md", "module/target/x.xml",
                ".mvn/wrapper/maven-wrapper.properties", "docs/a.md", "ankusa", ".ci/run", "ankusa-cli/ankusa")) {
            Path path = root.resolve(file);
            Files.createDirectories(path.getParent());
            Files.writeString(path, "iss" + "ue 1\n");
        }

        assertThat(files(root)).containsExactly(".ci/run", "ankusa", "docs/a.md");
    }

    /**
     * The files under {@code root} to scan, repository-relative with {@code /}, sorted: those Git
     * lists when {@code root} is in a work tree, else those a walk finds.
     */
    static List<String> files(Path root) {
        List<String> all = gitFiles(root).orElseGet(() -> walk(root));
        return all.stream().filter(ProcessWordsTest::scanned).sorted().distinct().toList();
    }

    /** Whether the repository-relative {@code file} is one this test reads. */
    static boolean scanned(String file) {
        for (String excluded : EXCLUDED) {
            if (excluded.endsWith("/") ? file.startsWith(excluded) : file.equals(excluded)) {
                return false;
            }
        }
        if (NAMED.contains(file)) {
            return true;
        }
        String name = file.substring(file.lastIndexOf('/') + 1).toLowerCase(Locale.ROOT);
        return EXTENSIONS.stream().anyMatch(name::endsWith);
    }

    /**
     * Every line of {@code files} (relative to {@code root}) that holds a process word, as
     * {@code file:line: text}; a file listed but gone (deleted, not yet committed) is skipped.
     */
    static List<String> scan(Path root, List<String> files) {
        List<String> found = new ArrayList<>();
        for (String file : files) {
            Path path = root.resolve(file);
            if (!Files.isRegularFile(path)) {
                continue;
            }
            String text;
            try {
                text = new String(Files.readAllBytes(path), StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            List<String> lines = text.lines().toList();
            for (int i = 0; i < lines.size(); i++) {
                String line = lines.get(i);
                if (PATTERNS.stream().anyMatch(p -> p.matcher(line).find())) {
                    found.add(file + ":" + (i + 1) + ": " + line.strip());
                }
            }
        }
        return found;
    }

    /** Git's tracked and untracked-but-not-ignored files under {@code root}, or empty without Git. */
    private static Optional<List<String>> gitFiles(Path root) {
        ProcessBuilder git = new ProcessBuilder("git", "ls-files", "--cached", "--others", "--exclude-standard", "-z")
                .directory(root.toFile())
                .redirectError(ProcessBuilder.Redirect.DISCARD);
        try {
            Process process = git.start();
            byte[] out;
            try (InputStream in = process.getInputStream()) {
                out = in.readAllBytes();
            }
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                return Optional.empty();
            }
            if (process.exitValue() != 0) {
                return Optional.empty();
            }
            return Optional.of(Stream.of(new String(out, StandardCharsets.UTF_8).split("\0"))
                    .filter(name -> !name.isEmpty())
                    .toList());
        } catch (IOException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }

    /** Every regular file under {@code root} outside the unwalked folders. */
    private static List<String> walk(Path root) {
        try (Stream<Path> paths = Files.walk(root)) {
            return paths.filter(Files::isRegularFile)
                    .map(path -> root.relativize(path))
                    .filter(relative -> {
                        for (Path part : relative) {
                            if (UNWALKED.contains(part.toString())) {
                                return false;
                            }
                        }
                        return true;
                    })
                    .map(relative -> relative.toString().replace('\\', '/'))
                    .collect(Collectors.toList());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

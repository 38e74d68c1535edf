package io.ankusa.tests.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The README's promises that the build can check: its quick-start test command is what CI runs,
 * and its embedding example is {@link Outbox}, which the build compiles and {@link OutboxTest} runs.
 * (Tests run with the module directory as working directory, so the repository root is "..".)
 */
class ReadmeTest {

    static final Path ROOT = Path.of("").toAbsolutePath().getParent();

    /** The fenced code blocks of the README's section {@code heading}. */
    static List<String> codeBlocks(String heading) throws IOException {
        String readme = Files.readString(ROOT.resolve("README.md"));
        int start = readme.indexOf("\n## " + heading + "\n");
        assertThat(start).as("README section '%s'", heading).isNotNegative();
        int end = readme.indexOf("\n## ", start + 1);
        String section = readme.substring(start, end < 0 ? readme.length() : end);
        Matcher fence = Pattern.compile("(?s)```[a-z]*\\n(.*?)```").matcher(section);
        List<String> blocks = new java.util.ArrayList<>();
        while (fence.find()) {
            blocks.add(fence.group(1));
        }
        return blocks;
    }

    @Test
    void theQuickStartTestCommandIsTheOneCiRuns() throws IOException {
        List<String> ciCommands = Files.readAllLines(ROOT.resolve(".ci/run")).stream()
                .map(String::strip)
                .filter(line -> line.startsWith("./mvnw"))
                .toList();
        List<String> readmeCommands = codeBlocks("Quick start").stream()
                .flatMap(block -> block.lines())
                .map(line -> line.replaceAll("\\s+#.*$", "").strip())
                .filter(line -> line.startsWith("./mvnw"))
                .toList();

        assertThat(ciCommands).as(".ci/run").hasSize(1);
        assertThat(readmeCommands).as("README quick start").containsExactlyElementsOf(ciCommands);
    }

    @Test
    void theQuickStartRunsTheDemoThroughTheLauncher() throws IOException {
        assertThat(codeBlocks("Quick start")).anySatisfy(block -> assertThat(block).containsPattern("(?m)^\\./ankusa demo\\b"));
        assertThat(ROOT.resolve("ankusa")).isExecutable();
    }

    @Test
    void theEmbeddingExampleIsTheCompiledOutbox() throws IOException {
        String source = Files.readString(ROOT.resolve("ankusa-tests/src/test/java/io/ankusa/tests/docs/Outbox.java"));
        String begin = "// tag::readme[]\n";
        String region = source.substring(source.indexOf(begin) + begin.length(), source.indexOf("// end::readme[]"));

        assertThat(codeBlocks("Embed it")).first().isEqualTo(region);
    }
}

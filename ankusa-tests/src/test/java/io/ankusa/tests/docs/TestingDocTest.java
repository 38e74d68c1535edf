package io.ankusa.tests.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * docs/testing.md shows the example user project {@code examples/sink-test} (its POM, its sink and
 * the sink's test), which the default build compiles and runs through the invoker: each fenced block
 * after a {@code <!-- examples/… -->} marker is that file, byte for byte.
 */
class TestingDocTest {

    private static final Pattern BLOCK = Pattern.compile("(?s)<!-- (examples/\\S+) -->\\n```\\w+\\n(.*?)```");

    @Test
    void theUsersProjectExampleIsTheBuiltExampleProject() throws IOException {
        String doc = Files.readString(ReadmeTest.ROOT.resolve("docs/testing.md"));
        Matcher block = BLOCK.matcher(doc);
        List<String> shown = new ArrayList<>();
        while (block.find()) {
            String file = block.group(1);
            assertThat(block.group(2)).as("docs/testing.md's block of %s", file)
                    .isEqualTo(Files.readString(ReadmeTest.ROOT.resolve(file)));
            shown.add(file);
        }
        assertThat(shown).containsExactlyInAnyOrder(
                "examples/sink-test/pom.xml",
                "examples/sink-test/src/main/java/com/example/chat/ChatSink.java",
                "examples/sink-test/src/test/java/com/example/chat/ChatSinkTest.java");
    }
}

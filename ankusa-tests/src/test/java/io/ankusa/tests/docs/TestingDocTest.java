package io.ankusa.tests.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * docs/testing.md's example of a user's own sink test is {@link ChatSinkTest}, which the build
 * compiles and runs with the kit's extension: the fenced block after the marker comment is the
 * tagged region of the source, byte for byte.
 */
class TestingDocTest {

    @Test
    void theUsersSinkExampleIsTheCompiledChatSinkTest() throws IOException {
        String source = Files.readString(ReadmeTest.ROOT.resolve("ankusa-tests/src/test/java/io/ankusa/tests/docs/ChatSinkTest.java"));
        String begin = "// tag::testing[]\n";
        String region = source.substring(source.indexOf(begin) + begin.length(), source.indexOf("// end::testing[]"));

        String doc = Files.readString(ReadmeTest.ROOT.resolve("docs/testing.md"));
        Matcher block = Pattern.compile("(?s)<!-- ChatSinkTest\\.java -->\\n```java\\n(.*?)```").matcher(doc);
        assertThat(block.find()).as("docs/testing.md holds the ChatSinkTest block").isTrue();
        assertThat(block.group(1)).isEqualTo(region);
    }
}

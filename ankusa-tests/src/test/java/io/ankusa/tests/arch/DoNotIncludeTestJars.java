package io.ankusa.tests.arch;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.core.importer.Location;
import java.util.regex.Pattern;

/**
 * Leaves out the classes of a module's test-jar (the queue's shared test helpers, {@code io.ankusa.tests.*}),
 * which {@link ImportOption.DoNotIncludeTests} takes for production classes once the jar is packaged: it knows
 * test classes only by their output folder. The rules see production classes only.
 */
public final class DoNotIncludeTestJars implements ImportOption {

    private static final Pattern TEST_JAR = Pattern.compile(".*-tests\\.jar.*");

    @Override
    public boolean includes(Location location) {
        return !location.matches(TEST_JAR);
    }
}

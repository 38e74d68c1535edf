package io.ankusa.store.lmdb;

import static io.ankusa.store.lmdb.TestStores.COUNTS;
import static io.ankusa.store.lmdb.TestStores.PLAIN;
import static io.ankusa.store.lmdb.TestStores.utf8;
import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.store.Durability;
import io.ankusa.store.KeyRange;
import io.ankusa.store.Store;
import io.ankusa.store.Stores;
import io.ankusa.store.WriteBatch;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lmdbjava.Env;

/**
 * The backend works with java.base left closed: surefire runs this class twice, on the module path
 * (the default execution) and on the class path (execution {@code class-path}), both without an
 * {@code argLine}; the system property {@code ankusa.test.path} says which run this is.
 */
class NoJvmFlagsTest {

    @TempDir
    Path dir;

    @Test
    void readsAndWritesWithJavaBaseClosed() throws IOException {
        try (Store store = Stores.open("lmdb", TestStores.options(dir))) {
            store.commit(new WriteBatch().put(PLAIN, utf8("k"), utf8("v")).merge(COUNTS, utf8("c"), 2),
                    Durability.SYNC);
            assertThat(store.get(PLAIN, utf8("k"))).map(TestStores::text).contains("v");
            assertThat(store.counter(COUNTS, utf8("c"))).isEqualTo(2);
            assertThat(TestStores.keys(store.scan(PLAIN, KeyRange.all()))).containsExactly("k");
        }

        Module javaBase = Object.class.getModule();
        for (Module module : List.of(Env.class.getModule(), LmdbStore.class.getModule())) {
            assertThat(javaBase.isOpen("java.nio", module)).as("java.nio open to %s", module).isFalse();
            assertThat(javaBase.isExported("sun.nio.ch", module)).as("sun.nio.ch exported to %s", module).isFalse();
        }
        assertThat(jvmArguments()).noneMatch(arg -> arg.contains("java.base/") || arg.contains("illegal-access")
                || arg.startsWith("-Dlmdbjava") || arg.startsWith("-Djnr"));
    }

    @Test
    void runsOnThePathThisExecutionNames() {
        String path = System.getProperty("ankusa.test.path");
        assertThat(path).isIn("module", "class");
        assertThat(LmdbStore.class.getModule().isNamed()).isEqualTo(path.equals("module"));
    }

    /** This JVM's command line, with surefire's {@code @argfiles} read in. */
    private static List<String> jvmArguments() throws IOException {
        List<String> arguments = new ArrayList<>();
        for (String argument : ProcessHandle.current().info().arguments().orElse(new String[0])) {
            arguments.add(argument);
            if (argument.startsWith("@") && Files.isRegularFile(Path.of(argument.substring(1)))) {
                arguments.addAll(Files.readAllLines(Path.of(argument.substring(1))));
            }
        }
        return arguments;
    }
}

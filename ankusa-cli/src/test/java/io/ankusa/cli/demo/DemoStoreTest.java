package io.ankusa.cli.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ankusa.store.StoreLockedException;
import io.ankusa.store.spi.DirectoryLock;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DemoStoreTest {

    @TempDir
    Path dir;

    @Test
    void aMissingDirectoryIsCreatedAndMarked() {
        Path store = dir.resolve("a/b");

        assertThat(DemoStore.prepare(store)).isEqualTo(DemoStore.Previous.NONE);

        assertThat(store.resolve(DemoStore.MARKER)).isRegularFile();
    }

    @Test
    void aPreviousDemoStoreIsReplaced() throws Exception {
        Path store = dir.resolve("demo");
        DemoStore.prepare(store);
        Files.writeString(store.resolve("data"), "old");

        assertThat(DemoStore.prepare(store)).isEqualTo(DemoStore.Previous.DEMO_REPLACED);

        assertThat(store.resolve("data")).doesNotExist();
        assertThat(store.resolve(DemoStore.MARKER)).isRegularFile();
    }

    @Test
    void aDirectoryThatIsNotADemosIsNeverTouched() throws Exception {
        Path store = Files.createDirectory(dir.resolve("real"));
        Files.writeString(store.resolve("CURRENT"), "precious");

        assertThatThrownBy(() -> DemoStore.prepare(store)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("not a demo's store");

        assertThat(store.resolve("CURRENT")).hasContent("precious");
    }

    @Test
    void aDemoStoreInUseIsNotDeleted() throws Exception {
        Path store = dir.resolve("demo");
        DemoStore.prepare(store);
        Files.writeString(store.resolve("data"), "live");

        DirectoryLock held = DirectoryLock.acquire(store);
        try {
            assertThatThrownBy(() -> DemoStore.prepare(store)).isInstanceOf(StoreLockedException.class);
        } finally {
            held.close();
        }

        assertThat(store.resolve("data")).hasContent("live");
    }
}

package io.ankusa.store.lmdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ankusa.store.StoreClosedException;
import io.ankusa.store.StoreError;
import io.ankusa.store.StoreException;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class ReaderGateTest {

    private final ReaderGate gate = new ReaderGate("test");

    @Test
    void aResizeWaitsOnlyWhileReadersAreLive() {
        gate.enterRead();
        gate.enterRead();
        assertThat(gate.readers()).isEqualTo(2);
        assertThat(gate.tryEnterResize()).isFalse();
        assertThat(gate.enterResize(Duration.ofMillis(1))).isFalse();

        gate.exitRead();
        gate.exitRead();
        assertThat(gate.enterResize(Duration.ZERO)).isTrue();
        assertThat(gate.tryEnterResize()).isFalse();
        gate.exitResize();
        assertThat(gate.tryEnterResize()).isTrue();
        gate.exitResize();
        gate.enterRead();
        assertThat(gate.readers()).isEqualTo(1);
    }

    @Test
    void anInterruptedResizeGivesUpAndKeepsTheFlag() {
        gate.enterRead();
        Thread.currentThread().interrupt();
        try {
            assertThat(gate.enterResize(Duration.ofMinutes(10))).isFalse();
            assertThat(Thread.currentThread().isInterrupted()).isTrue();
        } finally {
            Thread.interrupted();
        }
        gate.enterRead(); // readers are let in again
        assertThat(gate.readers()).isEqualTo(2);
    }

    @Test
    void closeRefusesReadersOnce() {
        assertThat(gate.close()).isTrue();
        assertThat(gate.close()).isFalse();
        assertThat(gate.isClosed()).isTrue();
        assertThatThrownBy(gate::enterRead).isInstanceOf(StoreClosedException.class);
        assertThat(gate.tryEnterResize()).isFalse();
        gate.awaitNoReaders();
    }

    @Test
    void aFailedMapRefusesReadersAndResizes() {
        gate.fail("map lost");
        assertThatThrownBy(gate::enterRead).isInstanceOfSatisfying(StoreException.class, e -> {
            assertThat(e.reason()).isEqualTo(StoreError.IO);
            assertThat(e).hasMessageContaining("map lost");
        });
        assertThat(gate.tryEnterResize()).isFalse();
    }
}

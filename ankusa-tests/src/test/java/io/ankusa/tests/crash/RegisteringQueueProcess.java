package io.ankusa.tests.crash;

import io.ankusa.api.EndpointRegistry;
import io.ankusa.api.EndpointSpec;
import io.ankusa.api.RegisteredEndpoint;
import io.ankusa.tests.queue.QueueUnderTest;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The program the registry kill -9 test kills: a child JVM that registers endpoints of tenant
 * {@code acme} one after another and rotates each one's secret, printing each change once the
 * registry returned it (it is synced): {@code endpoint <id> <sink> <secrets>} with the secrets
 * space-joined, then {@code done} after {@value #ENDPOINTS} endpoints, and idles until killed.
 *
 * <p>Arguments: {@code <backend> <directory>}.
 */
public final class RegisteringQueueProcess {

    static final int ENDPOINTS = 40;

    private static final PrintStream OUT = new PrintStream(System.out, true, StandardCharsets.UTF_8);

    private RegisteringQueueProcess() {
    }

    /** Registers and rotates; see the class comment. */
    public static void main(String[] args) throws InterruptedException {
        try (QueueUnderTest q = QueueUnderTest.open(args[0], Path.of(args[1]))) {
            EndpointRegistry registry = q.queue().endpointRegistry();
            for (int i = 0; i < ENDPOINTS; i++) {
                registry.add("acme", EndpointSpec.of(URI.create("https://e" + i + ".example.com/in")).withId("e" + i));
                RegisteredEndpoint rotated = registry.rotate("acme", "e" + i, Duration.ofDays(1));
                OUT.println("endpoint " + rotated.id() + " " + rotated.sink() + " " + String.join(" ",
                        rotated.secrets().stream().map(s -> s.secret()).toList()));
            }
            OUT.println("done");
            Thread.sleep(Long.MAX_VALUE); // the parent kills this process; it never closes the queue
        } catch (RuntimeException e) {
            OUT.println("error " + e);
        }
    }
}

package io.ankusa.testkit;

import io.ankusa.api.QueueConfig;
import io.ankusa.queue.Queue;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.AnnotatedElement;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * The JUnit 5 extension behind {@link AnkusaTest}: resolves {@link Queue} parameters to a queue on
 * a fresh temporary directory and closes it after the test.
 *
 * <p>One queue per extension context: a {@code @BeforeEach} method and the test it precedes get the
 * same queue; a constructor or {@code @BeforeAll} parameter gets a queue for the whole class. The
 * queue is closed, and its directory deleted, in {@code afterEach} (or {@code afterAll} for the
 * class's), so a test needs no {@code try} block; closing it in the test as well is harmless.
 * Usable without the annotation through {@code @ExtendWith(AnkusaExtension.class)}, on the
 * in-memory backend.
 */
public final class AnkusaExtension implements ParameterResolver, AfterEachCallback, AfterAllCallback {

    private static final ExtensionContext.Namespace NAMESPACE =
            ExtensionContext.Namespace.create(AnkusaExtension.class);
    private static final String KEY = "queue";

    /** For JUnit. */
    public AnkusaExtension() {
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == Queue.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        return context.getStore(NAMESPACE).getOrComputeIfAbsent(KEY, k -> open(backendOf(context)), TestQueue.class)
                .queue();
    }

    @Override
    public void afterEach(ExtensionContext context) {
        closeQueueOf(context);
    }

    @Override
    public void afterAll(ExtensionContext context) {
        closeQueueOf(context);
    }

    private static void closeQueueOf(ExtensionContext context) {
        TestQueue opened = context.getStore(NAMESPACE).remove(KEY, TestQueue.class);
        if (opened != null) {
            opened.close();
        }
    }

    /** The nearest {@link AnkusaTest}: the method's, else the class's or an enclosing class's. */
    static String backendOf(ExtensionContext context) {
        for (Optional<ExtensionContext> c = Optional.of(context); c.isPresent(); c = c.get().getParent()) {
            Optional<AnnotatedElement> element = c.get().getElement();
            Optional<AnkusaTest> annotation = element.map(e -> e.getAnnotation(AnkusaTest.class));
            if (annotation.isPresent()) {
                return annotation.get().backend();
            }
        }
        return AnkusaTest.MEMORY;
    }

    private static TestQueue open(String backend) {
        Path directory;
        try {
            directory = Files.createTempDirectory("ankusa-test-");
        } catch (IOException e) {
            throw new ParameterResolutionException("cannot create a temporary directory for the queue", e);
        }
        try {
            return new TestQueue(Queue.open(QueueConfig.builder(directory.resolve("store")).backend(backend).build()),
                    directory);
        } catch (RuntimeException e) {
            deleteTree(directory);
            throw e;
        }
    }

    private static void deleteTree(Path directory) {
        try (Stream<Path> paths = Files.walk(directory)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete the test queue's directory " + directory, e);
        }
    }

    /** A queue the extension opened, and the directory it deletes after closing it. */
    private record TestQueue(Queue queue, Path directory) {

        void close() {
            try {
                queue.close();
            } finally {
                deleteTree(directory);
            }
        }
    }
}

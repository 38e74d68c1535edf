package io.ankusa.testkit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Gives a JUnit 5 test class or method a {@link io.ankusa.queue.Queue} on a temporary store: declare
 * a {@code Queue} parameter on a test, lifecycle method or constructor and {@link AnkusaExtension}
 * opens one, and closes it (and deletes its directory) after the test, or after the class for a
 * constructor or {@code @BeforeAll} parameter.
 *
 * <p>The store is the in-memory backend ({@code memory}) unless {@link #backend()} names another
 * one on the test class path ({@code rocksdb}, {@code lmdb}, a third party's). The in-memory store
 * keeps the queue's whole behaviour (batches, counters, refusals) but not its durability: a test
 * about what survives a crash wants a real backend. On a method, the annotation overrides the
 * class's.
 */
@Documented
@Inherited
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD})
@ExtendWith(AnkusaExtension.class)
public @interface AnkusaTest {

    /** The in-memory backend's name, the default of {@link #backend()}. */
    String MEMORY = "memory";

    /**
     * The store backend the queue opens on.
     *
     * @return a provider name, as {@code QueueConfig.Builder.backend} takes it
     */
    String backend() default MEMORY;
}

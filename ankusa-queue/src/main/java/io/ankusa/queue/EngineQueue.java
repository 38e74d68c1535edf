package io.ankusa.queue;

import io.ankusa.api.QueueConfig;
import io.ankusa.queue.engine.QueueEngine;
import io.ankusa.queue.migration.Migrations;
import io.ankusa.store.Store;
import io.opentelemetry.api.OpenTelemetry;
import java.util.Objects;
import java.util.function.UnaryOperator;

/**
 * The {@link Queue} {@link Queue#open} returns: the engine with the public interface added. The
 * engine holds every method; this class only names the interface, so that the engine package never
 * imports the API back.
 */
final class EngineQueue extends QueueEngine implements Queue {

    private EngineQueue(QueueConfig config, Store store, OpenTelemetry openTelemetry) {
        super(config, store, openTelemetry);
    }

    static Queue open(QueueConfig config, OpenTelemetry openTelemetry) {
        Objects.requireNonNull(openTelemetry, "openTelemetry");
        return QueueEngine.open(config, Migrations.standard(), UnaryOperator.identity(),
                (c, store) -> new EngineQueue(c, store, openTelemetry));
    }
}

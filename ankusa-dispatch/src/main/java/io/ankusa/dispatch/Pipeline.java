package io.ankusa.dispatch;

/** Dispatches due deliveries to sinks (placeholder until the dispatcher lands). */
public interface Pipeline extends AutoCloseable {

    @Override
    void close();
}

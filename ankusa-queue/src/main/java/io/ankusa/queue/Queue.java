package io.ankusa.queue;

/** A durable multi-tenant webhook queue (placeholder until the queue core lands). */
public interface Queue extends AutoCloseable {

    @Override
    void close();
}

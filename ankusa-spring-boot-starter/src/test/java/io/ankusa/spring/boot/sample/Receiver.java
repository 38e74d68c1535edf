package io.ankusa.spring.boot.sample;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * A webhook receiver on 127.0.0.1 that answers 204 and records each {@code webhook-id} it was sent,
 * with the {@code traceparent} header that came with it.
 */
public final class Receiver implements AutoCloseable {

    private final HttpServer server;
    private final Set<String> ids = ConcurrentHashMap.newKeySet();
    private final Map<String, String> traceparents = new ConcurrentHashMap<>();

    private Receiver() {
        try {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.setExecutor(Executors.newFixedThreadPool(4));
        Object monitor = this;
        server.createContext("/hooks", exchange -> {
            try (InputStream body = exchange.getRequestBody()) {
                body.readAllBytes();
            }
            String id = exchange.getRequestHeaders().getFirst("webhook-id");
            if (id != null) {
                String traceparent = exchange.getRequestHeaders().getFirst("traceparent");
                if (traceparent != null) {
                    traceparents.put(id, traceparent);
                }
                ids.add(id);
                synchronized (monitor) {
                    monitor.notifyAll();
                }
            }
            exchange.sendResponseHeaders(204, -1);
            exchange.close();
        });
        server.start();
    }

    /** Starts a receiver on an ephemeral port of 127.0.0.1. */
    public static Receiver start() {
        return new Receiver();
    }

    /** {@return the URL hooks are posted to} */
    public URI url() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/hooks");
    }

    /** {@return the hook ids received so far} */
    public Set<String> ids() {
        return Set.copyOf(ids);
    }

    /** {@return the {@code traceparent} header the hook {@code id} came with, if it came with one} */
    public Optional<String> traceparent(String id) {
        return Optional.ofNullable(traceparents.get(id));
    }

    /** Waits up to {@code seconds} until every one of {@code expected} was received; false if not. */
    public boolean awaitAll(Set<String> expected, long seconds) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        synchronized (this) {
            while (!ids.containsAll(expected)) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                wait(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left))); // woken by each request recorded
            }
        }
        return true;
    }

    @Override
    public void close() {
        server.stop(0);
        ((java.util.concurrent.ExecutorService) server.getExecutor()).shutdownNow();
    }
}

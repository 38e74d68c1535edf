package io.ankusa.dispatch.http;

import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Reads and drops a response body without making the outcome wait for it.
 *
 * <p>Why: the request timeout of {@code java.net.http} stops at the response headers (seen here on
 * JDK 17 and 25), so a handler that waits for the body would hang on a receiver that sends its
 * status and then stalls. The status is all a sink needs, so {@link #getBody()} is complete from
 * the start; the body drains in the background, which lets an HTTP/1.1 connection return to the
 * pool, and is cancelled (closing the connection) when it outgrows {@code limitBytes} or still
 * runs after {@code deadline}.
 */
final class ResponseDrain implements HttpResponse.BodySubscriber<Void> {

    private final long limitBytes;
    private final Duration deadline;
    private final AtomicBoolean finished = new AtomicBoolean();
    private volatile Flow.Subscription subscription;
    private long received;

    private ResponseDrain(long limitBytes, Duration deadline) {
        this.limitBytes = limitBytes;
        this.deadline = deadline;
    }

    /** A handler giving each response its own drain. */
    static HttpResponse.BodyHandler<Void> handler(long limitBytes, Duration deadline) {
        return info -> new ResponseDrain(limitBytes, deadline);
    }

    @Override
    public CompletionStage<Void> getBody() {
        return CompletableFuture.completedStage(null);
    }

    @Override
    public void onSubscribe(Flow.Subscription subscription) {
        this.subscription = subscription;
        subscription.request(Long.MAX_VALUE);
        CompletableFuture.delayedExecutor(deadline.toMillis(), TimeUnit.MILLISECONDS).execute(this::cancel);
    }

    @Override
    public void onNext(List<ByteBuffer> buffers) {
        for (ByteBuffer buffer : buffers) {
            received += buffer.remaining();
        }
        if (received > limitBytes) {
            cancel();
        }
    }

    @Override
    public void onError(Throwable throwable) {
        finished.set(true);
    }

    @Override
    public void onComplete() {
        finished.set(true);
    }

    private void cancel() {
        if (finished.compareAndSet(false, true)) {
            subscription.cancel();
        }
    }
}

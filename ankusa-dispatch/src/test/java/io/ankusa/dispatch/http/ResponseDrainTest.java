package io.ankusa.dispatch.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class ResponseDrainTest {

    /** Counts cancels and releases a latch on the first. */
    private static final class RecordingSubscription implements Flow.Subscription {
        final CountDownLatch cancelled = new CountDownLatch(1);
        final AtomicInteger cancels = new AtomicInteger();
        long requested;

        @Override
        public void request(long n) {
            requested = n;
        }

        @Override
        public void cancel() {
            cancels.incrementAndGet();
            cancelled.countDown();
        }
    }

    @Test
    void the_body_stage_is_complete_before_any_byte_arrives() {
        var drain = ResponseDrain.handler(10, Duration.ofDays(1)).apply(null);

        assertThat(drain.getBody().toCompletableFuture()).isCompleted();
    }

    @Test
    void a_body_over_the_limit_is_cancelled_once() {
        var drain = ResponseDrain.handler(10, Duration.ofDays(1)).apply(null);
        var subscription = new RecordingSubscription();

        drain.onSubscribe(subscription);
        drain.onNext(List.of(ByteBuffer.allocate(6)));
        assertThat(subscription.cancels).hasValue(0);
        drain.onNext(List.of(ByteBuffer.allocate(5)));
        drain.onNext(List.of(ByteBuffer.allocate(5)));

        assertThat(subscription.requested).isEqualTo(Long.MAX_VALUE);
        assertThat(subscription.cancels).hasValue(1);
    }

    @Test
    void a_body_still_running_at_the_deadline_is_cancelled() throws InterruptedException {
        var drain = ResponseDrain.handler(10, Duration.ofMillis(1)).apply(null);
        var subscription = new RecordingSubscription();

        drain.onSubscribe(subscription);

        assertThat(subscription.cancelled.await(30, TimeUnit.SECONDS)).isTrue();
        assertThat(subscription.cancels).hasValue(1);
    }
}

package io.ankusa.dispatch.http;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Optional;
import org.apache.hc.core5.concurrent.FutureCallback;
import org.apache.hc.core5.http.EntityDetails;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.HttpResponse;
import org.apache.hc.core5.http.nio.AsyncResponseConsumer;
import org.apache.hc.core5.http.nio.CapacityChannel;
import org.apache.hc.core5.http.protocol.HttpContext;

/**
 * Answers as soon as the response's head is in, and drops the body in the background.
 *
 * <p>Why: the outcome depends on the status and headers only, and a receiver that sends its status
 * and then stalls must not hold the outcome; the stalled body ends with the response timeout
 * (socket inactivity), which closes the connection. A body longer than {@code limitBytes} is cut
 * off the same way; a complete one lets the connection return to the pool. One per request.
 */
final class HeadOnlyConsumer implements AsyncResponseConsumer<ResponseHead> {

    private final long limitBytes;
    private long received;

    HeadOnlyConsumer(long limitBytes) {
        this.limitBytes = limitBytes;
    }

    @Override
    public void consumeResponse(HttpResponse response, EntityDetails entity, HttpContext context,
            FutureCallback<ResponseHead> result) {
        result.completed(new ResponseHead(response.getCode(), value(response, "retry-after"),
                value(response, "location")));
    }

    private static Optional<String> value(HttpResponse response, String name) {
        Header header = response.getFirstHeader(name);
        return header == null ? Optional.empty() : Optional.ofNullable(header.getValue());
    }

    @Override
    public void informationResponse(HttpResponse response, HttpContext context) {
        // 1xx: nothing to do, the final response follows.
    }

    @Override
    public void updateCapacity(CapacityChannel channel) throws IOException {
        channel.update(Integer.MAX_VALUE);
    }

    @Override
    public void consume(ByteBuffer data) throws IOException {
        received += data.remaining();
        data.position(data.limit());
        if (received > limitBytes) {
            throw new IOException("response body longer than " + limitBytes + " bytes: connection closed");
        }
    }

    @Override
    public void streamEnd(List<? extends Header> trailers) {
        // The body is dropped; nothing to finish.
    }

    @Override
    public void failed(Exception cause) {
        // The exchange's future reports the failure.
    }

    @Override
    public void releaseResources() {
        // Holds nothing.
    }
}

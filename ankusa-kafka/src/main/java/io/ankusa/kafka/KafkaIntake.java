package io.ankusa.kafka;

import io.ankusa.api.Hook;
import io.ankusa.api.InvalidHookException;
import io.ankusa.api.QueueConfig;
import io.ankusa.api.TraceContext;
import io.ankusa.queue.tracing.TraceCarriers;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapPropagator;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * The producer side of a Kafka deployment: publishes hooks to the intake topic, keyed by tenant
 * (so all of a tenant's hooks go to one partition, in order), with {@code acks=all} and an
 * idempotent producer. Its acknowledgement is Kafka's: once {@link #publish} completes, the hook is
 * replicated in the topic and a {@link KafkaNode} will ingest it into the store of its partition.
 *
 * <p>A hook is refused before it is published exactly as {@code Queue.ingest} refuses it: a payload
 * over {@link Builder#payloadMaxBytes} fails with {@link InvalidHookException} (the check
 * {@link QueueConfig#checkPayload} makes for the queue), and every other input rule is enforced when
 * the {@link Hook} is built. Set the same payload limit as the nodes' queues.
 *
 * <p>The hook's trace context travels in the record headers {@code ankusa-traceparent} and
 * {@code ankusa-tracestate}: its own {@link Hook#traceContext()}, else the caller's current context
 * as the {@link Builder#openTelemetry configured OpenTelemetry}'s propagator writes it (none with
 * the default, {@link OpenTelemetry#noop()}). The node that ingests the record restores it into the
 * hook, so the ingest and attempt spans there continue the producer's trace.
 *
 * <p>Thread-safe; close it to flush and release the producer.
 */
public final class KafkaIntake implements AutoCloseable {

    private final Producer<String, byte[]> producer;
    private final String topic;
    private final int payloadMaxBytes;
    private final TextMapPropagator propagator;

    private KafkaIntake(Producer<String, byte[]> producer, String topic, int payloadMaxBytes,
            OpenTelemetry openTelemetry) {
        this.producer = producer;
        this.topic = topic;
        this.payloadMaxBytes = payloadMaxBytes;
        this.propagator = openTelemetry.getPropagators().getTextMapPropagator();
    }

    /**
     * A builder for an intake publishing to {@code topic} of the cluster at {@code bootstrapServers}.
     *
     * @param bootstrapServers Kafka's {@code bootstrap.servers}
     * @param topic            the intake topic
     * @return a builder with the queue's default payload limit (1 MiB)
     */
    public static Builder builder(String bootstrapServers, String topic) {
        return new Builder(bootstrapServers, topic);
    }

    /**
     * Publishes {@code hook} to the intake topic under its tenant. The future completes when Kafka
     * acknowledged the record ({@code acks=all}), or fails with {@link InvalidHookException} (payload
     * over the limit; nothing is published) or with the producer's {@link KafkaException}.
     *
     * @param hook the hook to publish
     * @return a future of Kafka's acknowledgement
     */
    public CompletableFuture<IntakeAck> publish(Hook hook) {
        Objects.requireNonNull(hook, "hook");
        try {
            QueueConfig.checkPayload(hook, payloadMaxBytes);
        } catch (InvalidHookException refusal) {
            return CompletableFuture.failedFuture(refusal);
        }
        CompletableFuture<IntakeAck> acked = new CompletableFuture<>();
        try {
            ProducerRecord<String, byte[]> record = new ProducerRecord<>(topic, hook.tenant(), HookRecord.encode(hook));
            TraceContext trace = hook.traceContext().or(this::currentTrace).orElse(null);
            if (trace != null) {
                HookRecord.writeTrace(trace, record.headers());
            }
            producer.send(record, (metadata, failure) -> {
                if (failure != null) {
                    acked.completeExceptionally(failure);
                } else {
                    acked.complete(new IntakeAck(hook.id(), hook.tenant(), metadata.partition(), metadata.offset()));
                }
            });
        } catch (KafkaException e) {
            acked.completeExceptionally(e);
        }
        return acked;
    }

    /** The caller's current context as the propagator writes it, if it writes a W3C one. */
    private Optional<TraceContext> currentTrace() {
        // A propagator's own form of the header: the hook is published untraced, never refused.
        return TraceCarriers.fromContext(Context.current(), propagator);
    }

    /** Sends what the producer holds and waits for its acknowledgements. */
    public void flush() {
        producer.flush();
    }

    /** Flushes and closes the producer (waiting up to 30 s). */
    @Override
    public void close() {
        producer.close(Duration.ofSeconds(30));
    }

    /** Configures a {@link KafkaIntake}. */
    public static final class Builder {

        private final Map<String, Object> properties = new HashMap<>();
        private final String topic;
        private int payloadMaxBytes = 1 << 20;
        private OpenTelemetry openTelemetry = OpenTelemetry.noop();

        private Builder(String bootstrapServers, String topic) {
            properties.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                    Objects.requireNonNull(bootstrapServers, "bootstrapServers"));
            this.topic = Objects.requireNonNull(topic, "topic");
        }

        /**
         * The largest payload accepted: set it to the nodes' {@code payload.max-bytes}.
         *
         * @param bytes the limit, 0 or more
         * @return this builder
         */
        public Builder payloadMaxBytes(int bytes) {
            if (bytes < 0) {
                throw new IllegalArgumentException("payload limit must be >= 0: " + bytes);
            }
            this.payloadMaxBytes = bytes;
            return this;
        }

        /**
         * The OpenTelemetry whose propagator captures the caller's current trace context for a hook
         * published without its own {@link Hook#traceContext()} (default {@link OpenTelemetry#noop()}:
         * such a hook is published without one). Give it the application's OpenTelemetry, as to
         * {@code Queue.open(QueueConfig, OpenTelemetry)} on a single node.
         *
         * @param openTelemetry the application's OpenTelemetry
         * @return this builder
         */
        public Builder openTelemetry(OpenTelemetry openTelemetry) {
            this.openTelemetry = Objects.requireNonNull(openTelemetry, "openTelemetry");
            return this;
        }

        /**
         * Sets a producer property ({@code linger.ms}, security settings, …). {@code acks},
         * {@code enable.idempotence} and the serializers are the intake's and cannot be changed.
         *
         * @param name  the producer property
         * @param value its value
         * @return this builder
         */
        public Builder property(String name, Object value) {
            properties.put(Objects.requireNonNull(name, "name"), Objects.requireNonNull(value, "value"));
            return this;
        }

        /**
         * Creates the producer.
         *
         * @return the intake
         */
        public KafkaIntake build() {
            Map<String, Object> config = new HashMap<>(properties);
            config.put(ProducerConfig.ACKS_CONFIG, "all");
            config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
            config.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
            config.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
            return new KafkaIntake(new KafkaProducer<>(config), topic, payloadMaxBytes, openTelemetry);
        }
    }
}

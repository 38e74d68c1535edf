package io.ankusa.spring.boot;

/**
 * The start of a node that is to deliver ({@code ankusa.pipeline.mode=deliver}, the default) but
 * has nowhere to deliver to: no {@link io.ankusa.dispatch.sink.Sink} bean, no
 * {@link io.ankusa.dispatch.http.EndpointResolver} bean, and {@code ankusa.http.registry.enabled=false}
 * (without it, the starter delivers to the queue's endpoint registry). {@link NoSinkFailureAnalyzer} turns it into
 * Spring Boot's start-up report, saying what to add.
 */
final class NoSinkException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    NoSinkException() {
        super("Ankusa is to deliver (" + AnkusaPipelineProperties.PREFIX + ".mode=deliver) but the application "
                + "has no Sink bean and no EndpointResolver bean to deliver through, and "
                + AnkusaHttpProperties.PREFIX + ".registry.enabled=false turns off the endpoint registry");
    }
}

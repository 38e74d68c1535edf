package io.ankusa.spring.boot;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Reports a start that failed with {@link NoSinkException}: what is missing, and the ways on (a
 * sink to deliver through, the queue's endpoint registry, or the ingest-only mode). Registered in
 * {@code META-INF/spring.factories}.
 */
final class NoSinkFailureAnalyzer extends AbstractFailureAnalyzer<NoSinkException> {

    NoSinkFailureAnalyzer() {
    }

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, NoSinkException cause) {
        String description = "Ankusa's queue is configured to deliver (" + AnkusaPipelineProperties.PREFIX
                + ".mode=deliver, the default), but the application has nowhere to deliver to: there is no "
                + "io.ankusa.dispatch.sink.Sink bean and no io.ankusa.dispatch.http.EndpointResolver bean, and "
                + AnkusaHttpProperties.PREFIX + ".registry.enabled=false turns off delivery to the queue's endpoint "
                + "registry. Without one, hooks would be stored and never delivered.";
        String action = "Do one of these:\n"
                + "\t- define an EndpointResolver bean (each tenant's URL and signing secrets): the starter then "
                + "builds an HttpSink over it and delivers by HTTP;\n"
                + "\t- define a Sink bean (your own delivery, such as a message broker or an in-process handler);\n"
                + "\t- remove " + AnkusaHttpProperties.PREFIX + ".registry.enabled=false: the starter then delivers by "
                + "HTTP to the endpoints registered in the queue's endpoint registry;\n"
                + "\t- or, if this node only stores hooks and another node delivers them, set "
                + AnkusaPipelineProperties.PREFIX + ".mode=ingest-only.";
        return new FailureAnalysis(description, action, cause);
    }
}

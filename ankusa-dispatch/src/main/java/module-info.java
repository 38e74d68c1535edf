/**
 * The Ankusa dispatcher: pipeline tick, sinks, retries, dead letters, marker cleanup, replay, HTTP
 * sink. Its exported signatures name {@code io.ankusa.api} and {@code io.ankusa.queue} types only.
 */
// httpclient5 and httpcore5 ship no module descriptor; their types stay internal. The OpenTelemetry
// API (Automatic-Module-Name io.opentelemetry.api) comes through io.ankusa.queue, whose Queue.open
// names it, as Pipeline.Builder.openTelemetry does.
@SuppressWarnings("requires-automatic")
module io.ankusa.dispatch {
    requires org.apache.httpcomponents.client5.httpclient5;
    requires org.apache.httpcomponents.core5.httpcore5;
    requires org.apache.httpcomponents.core5.httpcore5.h2;
    requires jdk.net; // httpcore5 uses jdk.net.Sockets, and an automatic module cannot require it itself
    requires org.slf4j;

    requires transitive io.ankusa.api;
    requires transitive io.ankusa.queue;

    exports io.ankusa.dispatch;
    exports io.ankusa.dispatch.sink;
    exports io.ankusa.dispatch.report;
    exports io.ankusa.dispatch.http;
}

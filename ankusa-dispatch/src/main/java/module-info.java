/**
 * The Ankusa dispatcher: pipeline tick, sinks, retries, dead letters, marker cleanup, replay, HTTP
 * sink. Its exported signatures name {@code io.ankusa.api} and {@code io.ankusa.queue} types only.
 */
module io.ankusa.dispatch {
    requires java.net.http;
    requires org.slf4j;

    requires transitive io.ankusa.api;
    requires transitive io.ankusa.queue;

    exports io.ankusa.dispatch;
    exports io.ankusa.dispatch.http;
}

/** The Ankusa dispatcher: pipeline tick, sinks, retries, dead letters, marker cleanup, replay, HTTP sink. */
module io.ankusa.dispatch {
    requires java.net.http;
    requires org.slf4j;

    requires transitive io.ankusa.api;
    requires transitive io.ankusa.queue;
    requires io.ankusa.store;

    exports io.ankusa.dispatch;
    exports io.ankusa.dispatch.http;
}

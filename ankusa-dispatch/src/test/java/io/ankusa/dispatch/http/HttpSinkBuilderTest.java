package io.ankusa.dispatch.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class HttpSinkBuilderTest {

    private static final WebhookSecret SECRET = WebhookSecret.parse("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw");

    @Test
    void theEndpointIsAnAbsoluteHttpOrHttpsUriWithAHost() {
        assertThat(HttpSink.builder(URI.create("https://hooks.example/in"), SECRET).build())
                .hasToString("HttpSink[https://hooks.example/in]");
        for (String bad : new String[] {"/relative", "ftp://hooks.example/in", "mailto:ops@example.com", "http:///no-host"}) {
            assertThatThrownBy(() -> HttpSink.builder(URI.create(bad), SECRET))
                    .as(bad).isInstanceOf(IllegalArgumentException.class);
        }
    }

    @Test
    void timeoutsArePositiveAndTheContentTypeIsNotBlank() {
        var builder = HttpSink.builder(URI.create("http://127.0.0.1/in"), SECRET);

        assertThatThrownBy(() -> builder.connectTimeout(Duration.ZERO)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> builder.requestTimeout(Duration.ofSeconds(-1))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> builder.contentType(" ")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void anEndpointOrAFixedSinkWithoutASecretDoesNotCompile() throws NoSuchMethodException {
        // The first secret is a parameter of its own: "Endpoint.of(url)" and "HttpSink.builder(url)" do not exist.
        assertThat(Endpoint.class.getMethod("of", URI.class, WebhookSecret.class, WebhookSecret[].class)).isNotNull();
        assertThatThrownBy(() -> Endpoint.class.getMethod("of", URI.class, WebhookSecret[].class))
                .isInstanceOf(NoSuchMethodException.class);
        assertThatThrownBy(() -> HttpSink.class.getMethod("builder", URI.class, WebhookSecret[].class))
                .isInstanceOf(NoSuchMethodException.class);
        assertThat(Endpoint.of(URI.create("https://hooks.example/in"), SECRET, SECRET).secrets()).hasSize(2);
    }
}

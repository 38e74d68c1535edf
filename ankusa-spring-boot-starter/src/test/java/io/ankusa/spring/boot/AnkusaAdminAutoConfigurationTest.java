package io.ankusa.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.ankusa.admin.AccessPolicy;
import io.ankusa.admin.AdminServlet;
import io.ankusa.admin.Role;
import io.ankusa.api.Hook;
import io.ankusa.queue.Queue;
import jakarta.servlet.Filter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.Principal;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.slf4j.LoggerFactory;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.json.JsonParserFactory;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.web.servlet.ServletRegistrationBean;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The admin API mounted by the starter in a real web application on a random port, behind a filter
 * that authenticates every request as one principal (as Spring Security would): the stats answer
 * at the default and at a configured path, a {@code POST} without the CSRF header is refused and
 * one with it is served; without an access policy, or with {@code ankusa.admin.enabled=false},
 * nothing is mounted. And when the auto-configuration applies, its INFO line, and a bad path.
 */
class AnkusaAdminAutoConfigurationTest {

    private static final String PRINCIPAL = "ops-user";

    private final HttpClient http = HttpClient.newHttpClient();

    /** The application: a node that only stores hooks, and a filter that authenticates every request. */
    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class App {
        @Bean
        Filter fixedPrincipal() {
            Principal principal = () -> PRINCIPAL;
            return (request, response, chain) -> chain.doFilter(
                    new HttpServletRequestWrapper((HttpServletRequest) request) {
                        @Override
                        public Principal getUserPrincipal() {
                            return principal;
                        }
                    }, response);
        }
    }

    /** The application's access policy: its one principal is an operator. */
    @Configuration(proxyBeanMethods = false)
    static class Policy {
        @Bean
        AccessPolicy accessPolicy() {
            return principal -> PRINCIPAL.equals(principal.getName()) ? Optional.of(Role.OPERATOR) : Optional.empty();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"rocksdb", "lmdb"})
    void servesTheStatsAtTheDefaultPathAndRefusesAPostWithoutTheCsrfHeader(String backend) throws Exception {
        try (ConfigurableApplicationContext app = start(List.of(App.class, Policy.class), "ankusa.backend=" + backend)) {
            app.getBean(Queue.class).ingest(Hook.builder().id("h").sourceId("s").tenantId("acme").payload("{}")
                    .sinks(0).build()).get(60, TimeUnit.SECONDS);

            HttpResponse<String> stats = get(app, "/ankusa/v1/stats");
            assertThat(stats.statusCode()).as(stats.body()).isEqualTo(200);
            assertThat(stats.headers().firstValue("Content-Type")).hasValueSatisfying(
                    type -> assertThat(type).startsWith("application/json"));
            Map<String, Object> body = JsonParserFactory.getJsonParser().parseMap(stats.body());
            assertThat(body).containsKeys("stats", "disk", "health", "tenantsSeen");
            assertThat(map(body.get("stats"))).containsEntry("pending", 1);

            String disable = "/ankusa/v1/tenants/acme/endpoints/0/disable";
            HttpResponse<String> refused = post(app, disable, Map.of());
            assertThat(refused.statusCode()).as(refused.body()).isEqualTo(403);
            assertThat(JsonParserFactory.getJsonParser().parseMap(refused.body())).containsEntry("error", "csrf");

            Map<String, Object> session = JsonParserFactory.getJsonParser().parseMap(
                    get(app, "/ankusa/v1/session").body());
            assertThat(session).containsEntry("principal", PRINCIPAL).containsEntry("role", "operator");
            HttpResponse<String> served = post(app, disable,
                    Map.of(session.get("csrfHeader").toString(), session.get("csrfToken").toString()));
            assertThat(served.statusCode()).as(served.body()).isEqualTo(200);
            assertThat(app.getBean(Queue.class).endpoints("acme", 10)).extracting(e -> e.state().name())
                    .containsExactly("DISABLED");
        }
    }

    @Test
    void mountsAtTheConfiguredPath() throws Exception {
        try (ConfigurableApplicationContext app = start(List.of(App.class, Policy.class),
                "ankusa.admin.path=/ops/queue")) {
            HttpResponse<String> stats = get(app, "/ops/queue/v1/stats");
            assertThat(stats.statusCode()).as(stats.body()).isEqualTo(200);
            assertThat(JsonParserFactory.getJsonParser().parseMap(stats.body())).containsKey("stats");
            assertThat(get(app, "/ankusa/v1/stats").statusCode()).isEqualTo(404);
        }
    }

    @Test
    void withoutAnAccessPolicyNothingIsMounted() throws Exception {
        try (ConfigurableApplicationContext app = start(List.of(App.class))) {
            assertThat(app.getBeansOfType(ServletRegistrationBean.class).values())
                    .noneMatch(r -> r.getServlet() instanceof AdminServlet);
            assertThat(get(app, "/ankusa/v1/stats").statusCode()).isEqualTo(404);
        }
    }

    @Test
    void disabledNothingIsMounted() throws Exception {
        try (ConfigurableApplicationContext app = start(List.of(App.class, Policy.class),
                "ankusa.admin.enabled=false")) {
            assertThat(app.getBeansOfType(ServletRegistrationBean.class).values())
                    .noneMatch(r -> r.getServlet() instanceof AdminServlet);
            assertThat(get(app, "/ankusa/v1/stats").statusCode()).isEqualTo(404);
        }
    }

    @Test
    void withoutAnAccessPolicyOneInfoLineSaysWhyAndWhatToAdd() {
        Logger logger = (Logger) LoggerFactory.getLogger(AnkusaAdminAutoConfiguration.class);
        ListAppender<ILoggingEvent> events = new ListAppender<>();
        events.start();
        logger.addAppender(events);
        try {
            webRunner().run(context -> assertThat(context).hasNotFailed()
                    .doesNotHaveBean(AnkusaAdminAutoConfiguration.SERVLET_NAME));
            assertThat(events.list).filteredOn(e -> e.getLevel() == Level.INFO)
                    .extracting(ILoggingEvent::getFormattedMessage)
                    .containsExactly(AnkusaAdminAutoConfiguration.NO_POLICY_NOTICE);
            assertThat(AnkusaAdminAutoConfiguration.NO_POLICY_NOTICE).contains("AccessPolicy", "ankusa.admin.enabled");

            events.list.clear();
            webRunner().withUserConfiguration(Policy.class).run(context -> {
                assertThat(context).hasNotFailed().hasBean(AnkusaAdminAutoConfiguration.SERVLET_NAME);
                Collection<String> mappings = ((ServletRegistrationBean<?>) context.getBean(
                        AnkusaAdminAutoConfiguration.SERVLET_NAME)).getUrlMappings();
                assertThat(mappings).containsExactly("/ankusa/*");
            });
            assertThat(events.list).extracting(ILoggingEvent::getFormattedMessage)
                    .doesNotContain(AnkusaAdminAutoConfiguration.NO_POLICY_NOTICE);
        } finally {
            logger.detachAppender(events);
        }
    }

    @Test
    void aPathThatIsNotAMountPointFailsTheStartWithWhatIsWrong() {
        for (String path : new String[] {"ankusa", "/ankusa/*", "/ankusa/", "/"}) {
            webRunner().withUserConfiguration(Policy.class).withPropertyValues("ankusa.admin.path=" + path)
                    .run(context -> {
                        assertThat(context).as(path).hasFailed();
                        assertThat(messages(context.getStartupFailure())).as(path).anyMatch(m -> m.contains(
                                "ankusa.admin.path must start with '/', not end with '/' and hold no '*'"));
                    });
        }
    }

    @Test
    void isMountedOnlyInAServletWebApplicationWithTheAdminModule() {
        webRunner().withUserConfiguration(Policy.class).withClassLoader(new FilteredClassLoader(AdminServlet.class))
                .run(context -> assertThat(context).hasNotFailed()
                        .doesNotHaveBean(AnkusaAdminAutoConfiguration.SERVLET_NAME));
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(AnkusaAutoConfiguration.class,
                        AnkusaAdminAutoConfiguration.class))
                .withPropertyValues("ankusa.directory=" + temporaryDirectory(), "ankusa.housekeeping.interval=0s",
                        "ankusa.pipeline.mode=ingest-only")
                .withUserConfiguration(Policy.class)
                .run(context -> assertThat(context).hasNotFailed().hasSingleBean(Queue.class)
                        .doesNotHaveBean(AnkusaAdminAutoConfiguration.SERVLET_NAME));
    }

    @Test
    void theActuatorEndpointGivesWayToTheMountedAdminApiOnly() {
        WebApplicationContextRunner runner = new WebApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(AnkusaAutoConfiguration.class,
                        AnkusaEndpointAutoConfiguration.class, AnkusaAdminAutoConfiguration.class))
                .withPropertyValues("ankusa.directory=" + temporaryDirectory(), "ankusa.housekeeping.interval=0s",
                        "ankusa.pipeline.mode=ingest-only", "management.endpoints.web.exposure.include=ankusa");
        runner.withUserConfiguration(Policy.class).run(context -> assertThat(context).hasNotFailed()
                .hasBean(AnkusaAdminAutoConfiguration.SERVLET_NAME).doesNotHaveBean(AnkusaEndpoint.class));
        runner.run(context -> assertThat(context).as("no access policy: the admin API is not mounted")
                .hasNotFailed().doesNotHaveBean(AnkusaAdminAutoConfiguration.SERVLET_NAME)
                .hasSingleBean(AnkusaEndpoint.class));
        runner.withUserConfiguration(Policy.class).withPropertyValues("ankusa.admin.enabled=false")
                .run(context -> assertThat(context).as("admin API disabled").hasSingleBean(AnkusaEndpoint.class));
    }

    private static WebApplicationContextRunner webRunner() {
        return new WebApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(AnkusaAutoConfiguration.class,
                        AnkusaAdminAutoConfiguration.class))
                .withPropertyValues("ankusa.directory=" + temporaryDirectory(), "ankusa.housekeeping.interval=0s",
                        "ankusa.pipeline.mode=ingest-only");
    }

    private static ConfigurableApplicationContext start(List<Class<?>> sources, String... properties) {
        List<String> all = new ArrayList<>(List.of("server.port=0", "server.address=127.0.0.1",
                "ankusa.directory=" + temporaryDirectory(), "ankusa.housekeeping.interval=0s",
                "ankusa.pipeline.mode=ingest-only"));
        all.addAll(List.of(properties));
        return new SpringApplicationBuilder(sources.toArray(Class<?>[]::new)).properties(all.toArray(String[]::new))
                .run();
    }

    private HttpResponse<String> get(ConfigurableApplicationContext app, String path)
            throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(uri(app, path)).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> post(ConfigurableApplicationContext app, String path, Map<String, String> headers)
            throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri(app, path)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{}"));
        headers.forEach(request::header);
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static URI uri(ConfigurableApplicationContext app, String path) {
        return URI.create("http://127.0.0.1:" + app.getEnvironment().getProperty("local.server.port") + path);
    }

    private static List<String> messages(Throwable failure) {
        List<String> messages = new ArrayList<>();
        for (Throwable t = failure; t != null; t = t.getCause()) {
            messages.add(String.valueOf(t.getMessage()));
        }
        return messages;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object value) {
        assertThat(value).isInstanceOf(Map.class);
        return (Map<String, Object>) value;
    }

    private static Path temporaryDirectory() {
        try {
            return Files.createTempDirectory("ankusa-admin-boot");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

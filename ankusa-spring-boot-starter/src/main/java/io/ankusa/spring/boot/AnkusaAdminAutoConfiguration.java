package io.ankusa.spring.boot;

import io.ankusa.admin.AccessPolicy;
import io.ankusa.admin.AdminServlet;
import io.ankusa.dispatch.Pipeline;
import io.ankusa.dispatch.Replayer;
import io.ankusa.queue.Queue;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.web.servlet.ServletRegistrationBean;
import org.springframework.context.annotation.Bean;

/**
 * The admin API ({@link AdminServlet}) mounted at {@code ankusa.admin.path} (default
 * {@code /ankusa}, mapped to {@code <path>/*}), when {@code ankusa-admin} is on the class path, the
 * application is a servlet web application, the queue is a bean and {@code ankusa.admin.enabled}
 * is not {@code false}.
 *
 * <p>It is mounted only behind the application's {@link AccessPolicy} bean: the principal is the
 * request's {@code getUserPrincipal()} (which Spring Security fills in), and the policy gives its
 * role. Without such a bean nothing is mounted, and one INFO line says so and what to add: there is
 * no open default.
 */
@AutoConfiguration(after = AnkusaAutoConfiguration.class)
@ConditionalOnClass({AdminServlet.class, ServletRegistrationBean.class})
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnBooleanProperty(name = AnkusaAdminProperties.PREFIX + ".enabled", matchIfMissing = true)
@ConditionalOnBean({Queue.class, Replayer.class})
@EnableConfigurationProperties(AnkusaAdminProperties.class)
public class AnkusaAdminAutoConfiguration {

    /** The name the admin servlet is registered under. */
    static final String SERVLET_NAME = "ankusaAdmin";

    /** The INFO line of an application with the admin module and no access policy. */
    static final String NO_POLICY_NOTICE = "The Ankusa admin API is not mounted: the application has no "
            + AccessPolicy.class.getName() + " bean, and the API has no open default. Define one (such as a"
            + " policy that maps the application's authenticated principals to Role.VIEWER or Role.OPERATOR) to"
            + " mount it at " + AnkusaAdminProperties.PREFIX + ".path, or set " + AnkusaAdminProperties.PREFIX
            + ".enabled=false to silence this line";

    /** Created by Spring. */
    public AnkusaAdminAutoConfiguration() {
    }

    /**
     * The admin servlet over the queue, its replayer and the pipeline when there is one, behind the
     * application's access policy, at {@code ankusa.admin.path}.
     *
     * @param properties {@code ankusa.admin.*}
     * @param queue      the queue
     * @param replayer   its replayer
     * @param pipeline   the node's pipeline, if it has one
     * @param policy     the application's access policy
     * @return the servlet's registration
     */
    @Bean
    @ConditionalOnBean(AccessPolicy.class)
    @ConditionalOnMissingBean(name = SERVLET_NAME)
    public ServletRegistrationBean<AdminServlet> ankusaAdmin(AnkusaAdminProperties properties, Queue queue,
            Replayer replayer, ObjectProvider<Pipeline> pipeline, AccessPolicy policy) {
        AdminServlet.Builder builder = AdminServlet.builder(queue).replayer(replayer).accessPolicy(policy);
        pipeline.ifAvailable(builder::pipeline);
        ServletRegistrationBean<AdminServlet> registration = new ServletRegistrationBean<>(builder.build(),
                properties.mapping());
        registration.setName(SERVLET_NAME);
        return registration;
    }

    /**
     * Says once, at start, that the admin API is not mounted for want of an access policy.
     *
     * @return the notice, logged once every singleton exists
     */
    @Bean
    @ConditionalOnMissingBean(AccessPolicy.class)
    public SmartInitializingSingleton ankusaAdminNoPolicyNotice() {
        return () -> LoggerFactory.getLogger(AnkusaAdminAutoConfiguration.class).info(NO_POLICY_NOTICE);
    }
}

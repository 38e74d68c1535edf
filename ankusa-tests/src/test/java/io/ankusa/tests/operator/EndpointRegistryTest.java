package io.ankusa.tests.operator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ankusa.api.AuditAction;
import io.ankusa.api.EndpointRegistry;
import io.ankusa.api.EndpointRegistryException;
import io.ankusa.api.EndpointRegistryException.Reason;
import io.ankusa.api.EndpointSpec;
import io.ankusa.api.RegisteredEndpoint;
import io.ankusa.dispatch.http.RegistryResolver;
import io.ankusa.store.Bytes;
import io.ankusa.tests.queue.IndexFold;
import io.ankusa.tests.queue.QueueUnderTest;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The endpoint registry kept in the store: registration with typed refusals (the SSRF guard's
 * rules through the dispatcher's resolver), update, removal without reusing a sink number, the
 * audit trail, a restart, and erasure leaving no registry bytes.
 */
class EndpointRegistryTest {

    private static final URI HOOKS = URI.create("https://hooks.example.com/in");

    @TempDir
    Path dir;

    private static EndpointSpec spec(String id) {
        return EndpointSpec.of(HOOKS).withId(id).withDescription("billing").withEventTypes(List.of("invoice.*", "user.created"))
                .withLimits(50, 4).withHeaders(Map.of("X-Team", "billing")).withMetadata(Map.of("owner", "ops"));
    }

    private static EndpointRegistry guarded(QueueUnderTest q) {
        return RegistryResolver.of(q.queue()).registry();
    }

    private static void refused(Reason reason, ThrowingCallable call) {
        assertThatThrownBy(call).isInstanceOfSatisfying(EndpointRegistryException.class,
                e -> assertThat(e.reason()).isEqualTo(reason));
    }

    @ParameterizedTest(name = "registrations are validated and refused with typed errors [{0}]")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void registrationsAreValidatedAndRefusedWithTypedErrors(String backend) {
        try (QueueUnderTest q = QueueUnderTest.open(backend, dir)) {
            EndpointRegistry registry = guarded(q);
            RegisteredEndpoint first = registry.add("acme", spec("billing"));
            assertThat(first.sink()).isZero();
            assertThat(first.secrets()).hasSize(1);
            assertThat(first.enabled()).isTrue();

            refused(Reason.INVALID_URL, () -> registry.add("acme", EndpointSpec.of(URI.create("ftp://x.example/"))));
            refused(Reason.INVALID_URL, () -> registry.add("acme", EndpointSpec.of(URI.create("/relative"))));
            refused(Reason.ADDRESS_REFUSED, () -> registry.add("acme", EndpointSpec.of(URI.create("http://127.0.0.1/"))));
            refused(Reason.ADDRESS_REFUSED, () -> registry.add("acme", EndpointSpec.of(URI.create("http://10.1.2.3/"))));
            refused(Reason.ADDRESS_REFUSED, () -> registry.add("acme",
                    EndpointSpec.of(URI.create("http://169.254.169.254/latest"))));
            refused(Reason.ADDRESS_REFUSED, () -> registry.add("acme", EndpointSpec.of(URI.create("http://localhost/"))));
            refused(Reason.DUPLICATE_ID, () -> registry.add("acme", spec("billing")));
            refused(Reason.INVALID_ID, () -> registry.add("acme", spec("has space")));
            refused(Reason.INVALID_EVENT_TYPE, () -> registry.add("acme", spec("e").withEventTypes(List.of("a..b"))));
            refused(Reason.INVALID_SETTING, () -> registry.add("acme", spec("l").withLimits(-1, 0)));
            refused(Reason.INVALID_TENANT, () -> registry.add("", spec("t")));
            refused(Reason.UNKNOWN_TENANT, () -> registry.remove("nobody", "billing"));
            refused(Reason.UNKNOWN_ENDPOINT, () -> registry.update("acme", "nope", spec("nope")));
            refused(Reason.UNKNOWN_ENDPOINT, () -> registry.rotate("acme", "nope", Duration.ZERO));
            assertThat(registry.endpoints("acme")).as("the refusals wrote nothing").containsExactly(first);
            assertThat(q.queue().endpointRegistry().add("acme", EndpointSpec.of(URI.create("http://127.0.0.1/")))
                    .sink()).as("the queue's own registry leaves addresses to the dispatcher's guard").isEqualTo(1);
        }
    }

    @ParameterizedTest(name = "a registry survives a restart and never reuses a sink [{0}]")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aRegistrySurvivesARestartAndNeverReusesASink(String backend) {
        try (QueueUnderTest q = QueueUnderTest.open(backend, dir)) {
            EndpointRegistry registry = guarded(q);
            RegisteredEndpoint billing = registry.add("acme", spec("billing"));
            RegisteredEndpoint generated = registry.add("acme", EndpointSpec.of(URI.create("https://b.example.com/")));
            assertThat(generated.id()).startsWith("ep_").hasSize(29);
            assertThat(generated.sink()).isEqualTo(1);
            registry.update("acme", "billing", spec("billing").withUrl(URI.create("https://c.example.com/x")));
            registry.remove("acme", generated.id());
            assertThat(q.queue().auditTrail(4)).extracting(e -> e.action())
                    .containsExactly(AuditAction.ENDPOINT_REMOVE, AuditAction.ENDPOINT_UPDATE,
                            AuditAction.ENDPOINT_REGISTER, AuditAction.ENDPOINT_REGISTER);
            assertThat(q.queue().auditTrail(1).get(0).counts()).containsEntry("sink", 1L);

            q.reopen();

            EndpointRegistry again = guarded(q);
            RegisteredEndpoint read = again.endpoint("acme", "billing").orElseThrow();
            assertThat(read.url()).isEqualTo(URI.create("https://c.example.com/x"));
            assertThat(read.secrets()).isEqualTo(billing.secrets());
            assertThat(read).usingRecursiveComparison().ignoringFields("url").isEqualTo(billing);
            assertThat(again.endpoint("acme", generated.id())).isEmpty();
            assertThat(again.endpoint("acme", 1)).isEmpty();
            assertThat(again.add("acme", spec("third")).sink()).as("a removed endpoint's sink is not given again")
                    .isEqualTo(2);
            assertThat(again.add("other", spec("billing")).sink()).as("sinks are per tenant").isZero();
            IndexFold.of(q.store()).assertCountersMatch(q.store());
        }
    }

    @ParameterizedTest(name = "erasure leaves no registry bytes [{0}]")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void erasureLeavesNoRegistryBytes(String backend) {
        try (QueueUnderTest q = QueueUnderTest.open(backend, dir)) {
            EndpointRegistry registry = guarded(q);
            registry.add("victim", spec("billing"));
            registry.add("victim", spec("gone"));
            registry.remove("victim", "gone");
            registry.add("never-ingested", spec("billing"));
            RegisteredEndpoint kept = registry.add("other", spec("billing"));
            q.ingest(QueueUnderTest.hook("h1", "victim", 0));
            String victimHex = Bytes.hex("victim".getBytes(StandardCharsets.UTF_8));
            String neverHex = Bytes.hex("never-ingested".getBytes(StandardCharsets.UTF_8));
            assertThat(ErasureSeed.withoutAudit(q)).anyMatch(line -> line.contains(victimHex));

            q.queue().eraseTenant("victim");
            q.queue().eraseTenant("never-ingested");

            assertThat(ErasureSeed.withoutAudit(q)).as("neither tenant id is anywhere but in the audit trail")
                    .noneMatch(line -> line.contains(victimHex)).noneMatch(line -> line.contains(neverHex));
            assertThat(registry.endpoints("victim")).isEmpty();
            assertThat(registry.endpoints("never-ingested")).isEmpty();
            assertThat(registry.endpoints("other")).containsExactly(kept);
            q.reopen();
            assertThat(guarded(q).endpoints("victim")).isEmpty();
            assertThat(guarded(q).add("victim", spec("billing")).sink()).as("a new tenant of the same id starts again")
                    .isZero();
        }
    }
}

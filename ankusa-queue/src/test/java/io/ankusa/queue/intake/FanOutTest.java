package io.ankusa.queue.intake;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.api.EndpointRegistry;
import io.ankusa.api.EndpointSpec;
import io.ankusa.api.Hook;
import io.ankusa.api.Receipt;
import io.ankusa.keys.ColumnFamilies;
import io.ankusa.keys.DeliveryKey;
import io.ankusa.keys.HookKey;
import io.ankusa.keys.KeySpan;
import io.ankusa.queue.deliveries.HookEnvelope;
import io.ankusa.store.KeyRange;
import io.ankusa.store.Scan;
import io.ankusa.tests.queue.IndexFold;
import io.ankusa.tests.queue.QueueUnderTest;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The ingest writer's fan-out of a hook with an event type to its tenant's subscribed endpoints. */
class FanOutTest {

    @TempDir
    Path dir;

    private static Hook typed(String id, String tenant, String type) {
        return Hook.builder().id(id).sourceId("src").tenantId(tenant).eventType(type).payload("{}").build();
    }

    private static void register(EndpointRegistry registry, String tenant, String id, String... types) {
        registry.add(tenant, EndpointSpec.of(URI.create("https://" + id + ".example/hooks")).withId(id)
                .withEventTypes(List.of(types)));
    }

    /** The sinks of hook {@code seq}'s delivery rows, read straight from the store. */
    private static List<Integer> deliveryRows(QueueUnderTest q, long seq) {
        List<Integer> sinks = new ArrayList<>();
        KeySpan span = DeliveryKey.FAMILY.between();
        try (Scan scan = q.store().scan(ColumnFamilies.DELIVERIES, KeyRange.of(span.from(), span.to()))) {
            scan.forEachRemaining(kv -> {
                DeliveryKey key = DeliveryKey.decode(kv.key());
                if (key.seq() == seq) {
                    sinks.add(key.sink());
                }
            });
        }
        return sinks;
    }

    private static Optional<Hook> storedHook(QueueUnderTest q, long seq) {
        return q.store().get(ColumnFamilies.HOOKS, new HookKey(seq).encode()).map(b -> HookEnvelope.decode(b).hook());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aHookFansOutToTheSubscribedEndpointsOnlyInItsOwnCommit(String backend) {
        try (QueueUnderTest q = QueueUnderTest.open(backend, dir)) {
            EndpointRegistry registry = q.queue().endpointRegistry();
            register(registry, "acme", "all-invoices", "invoice.*");      // sink 0
            register(registry, "acme", "users", "user.created");          // sink 1
            register(registry, "acme", "paid", "invoice.paid", "x.y");    // sink 2
            register(registry, "acme", "none");                           // sink 3: subscribes to nothing
            register(registry, "other", "theirs", "invoice.*");           // another tenant's sink 0

            Receipt receipt = q.ingest(typed("h1", "acme", "invoice.paid"));

            assertThat(receipt.sinks()).contains(List.of(0, 2));
            assertThat(receipt.noDeliveries()).isFalse();
            assertThat(deliveryRows(q, receipt.seq())).containsExactly(0, 2);
            Hook stored = storedHook(q, receipt.seq()).orElseThrow();
            assertThat(stored.sinks()).containsExactly(0, 2);
            assertThat(stored.eventType()).contains("invoice.paid");
            assertThat(q.queue().pendingForTenant("acme").pending()).isEqualTo(2);
            assertThat(q.queue().pendingForTenant("other").pending()).isZero();
            IndexFold.of(q.store()).assertCountersMatch(q.store());

            q.reopen();
            assertThat(deliveryRows(q, receipt.seq())).as("durable").containsExactly(0, 2);
            assertThat(storedHook(q, receipt.seq()).orElseThrow().sinks()).containsExactly(0, 2);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aHookNoEndpointSubscribesToIsAcknowledgedWithNoDeliveries(String backend) {
        try (QueueUnderTest q = QueueUnderTest.open(backend, dir)) {
            register(q.queue().endpointRegistry(), "acme", "users", "user.*");
            Receipt before = q.ingest(QueueUnderTest.hook("plain", "acme", 5));

            Receipt none = q.ingest(typed("h1", "acme", "invoice.paid"));
            Receipt unknownTenant = q.ingest(typed("h2", "nobody", "invoice.paid"));

            assertThat(none.sinks()).contains(List.of());
            assertThat(none.noDeliveries()).isTrue();
            assertThat(none.seq()).isEqualTo(before.seq() + 1);
            assertThat(unknownTenant.noDeliveries()).isTrue();
            assertThat(deliveryRows(q, none.seq())).isEmpty();
            assertThat(storedHook(q, none.seq())).as("nothing to deliver, no hook row").isEmpty();
            assertThat(q.queue().pendingForTenant("acme").pending()).isEqualTo(1);
            assertThat(before.sinks()).contains(List.of(5));
            IndexFold.of(q.store()).assertCountersMatch(q.store());
            IndexFold.of(q.store()).assertEveryDueRowHasAMarker();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aRegistryChangeAppliesToHooksIngestedAfterItOnly(String backend) {
        try (QueueUnderTest q = QueueUnderTest.open(backend, dir)) {
            EndpointRegistry registry = q.queue().endpointRegistry();
            register(registry, "acme", "a", "order.*");   // sink 0
            register(registry, "acme", "b", "order.*");   // sink 1
            Receipt first = q.ingest(typed("h1", "acme", "order.created"));

            registry.remove("acme", "a");
            registry.update("acme", "b", EndpointSpec.of(URI.create("https://b.example/hooks")).withId("b")
                    .withEventTypes(List.of("user.*")));
            register(registry, "acme", "c", "order.created");   // sink 2
            Receipt second = q.ingest(typed("h2", "acme", "order.created"));

            assertThat(deliveryRows(q, first.seq())).as("rows already written stay").containsExactly(0, 1);
            assertThat(second.sinks()).contains(List.of(2));
            assertThat(deliveryRows(q, second.seq())).containsExactly(2);
            IndexFold.of(q.store()).assertCountersMatch(q.store());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aRepeatOfATypedHookIsAnsweredWithTheFirstSeqAndWritesNothing(String backend) {
        try (QueueUnderTest q = QueueUnderTest.open(backend, dir)) {
            register(q.queue().endpointRegistry(), "acme", "a", "order.*");
            Hook hook = Hook.builder().id("h1").sourceId("src").tenantId("acme").eventType("order.created")
                    .idempotencyKey("k").payload("{}").build();
            Receipt first = q.ingest(hook);
            register(q.queue().endpointRegistry(), "acme", "b", "order.*");
            Receipt repeat = q.ingest(hook);

            assertThat(repeat.seq()).isEqualTo(first.seq());
            assertThat(repeat.sinks()).isEmpty();
            assertThat(repeat).as("names the same hook").isEqualTo(first);
            assertThat(deliveryRows(q, first.seq())).containsExactly(0);
            assertThat(q.queue().pendingForTenant("acme").pending()).isEqualTo(1);
        }
    }
}

package io.ankusa.tests.operator;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.api.DeliveryState;
import io.ankusa.api.Hook;
import io.ankusa.api.Receipt;
import io.ankusa.api.StoredDelivery;
import io.ankusa.api.StoredHook;
import io.ankusa.keys.ColumnFamilies;
import io.ankusa.queue.ledger.ClaimedDelivery;
import io.ankusa.tests.queue.QueueUnderTest;
import io.ankusa.tests.support.RecordingStore;
import io.ankusa.tests.support.ScanCountingStore;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * One stored hook read back by tenant and seq ({@code Queue.hook}): the hook byte for byte, each
 * sink's state, absent for what the tenant does not hold, and point reads only.
 */
class StoredHookReadTest {

    private static final String TENANT = "shop";

    /** Not UTF-8, with NUL and 0xFF: the payload is bytes. */
    private static final byte[] PAYLOAD = {0, 1, (byte) 0xFF, (byte) 0xC3, 0x28, '{', '}', 0};

    @TempDir
    Path dir;

    /** Headers whose order is not their sorted order, with values holding spaces, a tab and Latin-1. */
    private static Map<String, String> headers() {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("x-zeta", "last  in order, first added");
        headers.put("content-type", "application/json; charset=utf-8");
        headers.put("x-alpha", "gr\u00fc\u00df\tend");
        return headers;
    }

    /** The hooks of one test and what each was left as. */
    private record Seeded(Receipt states, Receipt quarantined, Receipt delivered, Receipt keyed, Receipt other,
            long deadAt, long retriedAt) {
    }

    /**
     * A hook with sinks 3, 0, 2, 1 left with sink 0 delivered, 1 dead, 2 waiting for a retry and 3 in
     * flight; a hook whose stored bytes were damaged and quarantined by a claim; a one-sink hook
     * delivered (and so deleted); a hook with idempotency and ordering keys left due; another tenant's hook.
     */
    private static Seeded seed(QueueUnderTest q) {
        Receipt states = q.ingest(Hook.builder().id("msg_states").sourceId("billing").tenantId(TENANT)
                .headers(headers()).payload(PAYLOAD).sinks(3, 0, 2, 1).build());
        q.clock().advance(5);
        List<ClaimedDelivery> claimed = Operations.claim(q, TENANT, 10);
        assertThat(claimed).hasSize(4);
        long deadAt = 0;
        long retriedAt = 0;
        for (ClaimedDelivery d : claimed) {
            q.clock().advance(1);
            switch (d.sink()) {
                case 0 -> q.ledger().delivered(d.row());
                case 1 -> {
                    deadAt = q.clock().millis();
                    q.ledger().dead(d, "HTTP 410 from the receiver");
                }
                case 2 -> {
                    retriedAt = q.clock().millis();
                    q.ledger().retry(d, q.clock().millis() + 60_000, "HTTP 503 from the receiver");
                }
                default -> {
                    // sink 3 stays in flight
                }
            }
        }
        Receipt quarantined = q.ingest(QueueUnderTest.hook("msg_damaged", TENANT, 0, 1));
        q.damageHook(quarantined.seq());
        assertThat(Operations.claim(q, TENANT, 10)).as("the damaged hook's rows are quarantined, not claimed").isEmpty();
        Receipt delivered = q.ingest(QueueUnderTest.hook("msg_delivered", TENANT, 4));
        assertThat(Operations.deliver(q, TENANT, 10)).isEqualTo(1);
        Receipt keyed = q.ingest(Hook.builder().id("msg_keyed").sourceId("orders").tenantId(TENANT).payload("{}")
                .idempotencyKey("idem-1").orderingKey("order-7").sinks(5).build());
        Receipt other = q.ingest(QueueUnderTest.hook("msg_other", "other-shop", 0));
        return new Seeded(states, quarantined, delivered, keyed, other, deadAt, retriedAt);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aHookReadsBackByteForByteWithEachSinksState(String backend) {
        try (QueueUnderTest q = QueueUnderTest.open(backend, dir)) {
            long ingestedAt = q.clock().millis();
            Seeded seeded = seed(q);

            StoredHook stored = q.queue().hook(TENANT, seeded.states().seq()).orElseThrow();

            assertThat(stored.tenantId()).isEqualTo(TENANT);
            assertThat(stored.seq()).isEqualTo(seeded.states().seq());
            assertThat(stored.receivedAt()).hasValue(Instant.ofEpochMilli(ingestedAt));
            Hook hook = stored.hook().orElseThrow();
            assertThat(hook.id()).isEqualTo("msg_states");
            assertThat(hook.sourceId()).isEqualTo("billing");
            assertThat(hook.tenant()).isEqualTo(TENANT);
            assertThat(new ArrayList<>(hook.headers().entrySet())).as("every header, in ingest order")
                    .containsExactlyElementsOf(new ArrayList<>(headers().entrySet()));
            assertThat(hook.payload()).isEqualTo(PAYLOAD);
            assertThat(hook.sinks()).containsExactly(3, 0, 2, 1);
            assertThat(hook.orderingKey()).isEmpty();
            assertThat(stored.deliveries()).extracting(StoredDelivery::sink).as("by sink number")
                    .containsExactly(0, 1, 2, 3);
            assertThat(stored.delivery(0)).hasValue(StoredDelivery.finished(0));
            assertThat(stored.delivery(1)).hasValue(new StoredDelivery(1, DeliveryState.DEAD, 1,
                    Optional.of(Instant.ofEpochMilli(seeded.deadAt())), "HTTP 410 from the receiver"));
            assertThat(stored.delivery(2)).hasValue(new StoredDelivery(2, DeliveryState.DUE, 1,
                    Optional.of(Instant.ofEpochMilli(seeded.retriedAt())), "HTTP 503 from the receiver"));
            assertThat(stored.delivery(3)).hasValue(new StoredDelivery(3, DeliveryState.IN_FLIGHT, 0, Optional.empty(),
                    ""));
            assertThat(stored.delivery(4)).as("not one of its sinks").isEmpty();

            StoredHook keyed = q.queue().hook(TENANT, seeded.keyed().seq()).orElseThrow();
            assertThat(keyed.hook().orElseThrow().orderingKey()).hasValue("order-7");
            assertThat(keyed.hook().orElseThrow().idempotencyKey()).hasValue("idem-1");
            assertThat(keyed.deliveries()).containsExactly(new StoredDelivery(5, DeliveryState.DUE, 0,
                    Optional.empty(), ""));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aHookThatDoesNotDecodeShowsItsQuarantinedDeliveriesAndNoBody(String backend) {
        try (QueueUnderTest q = QueueUnderTest.open(backend, dir)) {
            Seeded seeded = seed(q);

            StoredHook stored = q.queue().hook(TENANT, seeded.quarantined().seq()).orElseThrow();

            assertThat(stored.hook()).isEmpty();
            assertThat(stored.receivedAt()).isEmpty();
            assertThat(stored.deliveries()).extracting(StoredDelivery::sink, StoredDelivery::state)
                    .containsExactly(org.assertj.core.groups.Tuple.tuple(0, DeliveryState.QUARANTINED),
                            org.assertj.core.groups.Tuple.tuple(1, DeliveryState.QUARANTINED));
            assertThat(q.queue().hook("other-shop", seeded.quarantined().seq())).as("filed under shop only").isEmpty();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void whatTheTenantDoesNotHoldIsEmpty(String backend) {
        try (QueueUnderTest q = QueueUnderTest.open(backend, dir)) {
            Seeded seeded = seed(q);

            assertThat(q.queue().hook("nobody", seeded.states().seq())).as("unknown tenant").isEmpty();
            assertThat(q.queue().hook(TENANT, seeded.other().seq())).as("another tenant's hook").isEmpty();
            assertThat(q.queue().hook("other-shop", seeded.states().seq())).as("another tenant's hook").isEmpty();
            assertThat(q.queue().hook("other-shop", seeded.other().seq())).isPresent();
            assertThat(q.queue().hook(TENANT, seeded.other().seq() + 1)).as("no hook of that seq").isEmpty();
            assertThat(q.queue().hook(TENANT, 0)).isEmpty();
            assertThat(q.queue().hook(TENANT, -1)).isEmpty();
            assertThat(q.queue().hook(TENANT, seeded.delivered().seq()))
                    .as("a hook whose only delivery was delivered is deleted by that settle").isEmpty();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aReadIsPointReadsAndOneScanOfTheHooksOwnDeliveryRows(String backend) {
        AtomicReference<ScanCountingStore> scans = new AtomicReference<>();
        AtomicReference<RecordingStore> recorder = new AtomicReference<>();
        try (QueueUnderTest q = QueueUnderTest.open(backend, dir, b -> b, s -> {
            scans.set(new ScanCountingStore(s));
            recorder.set(new RecordingStore(scans.get()));
            return recorder.get();
        })) {
            Seeded seeded = seed(q);
            q.queue().hook(TENANT, seeded.states().seq()).orElseThrow();
            scans.get().clear();
            recorder.get().clear();

            assertThat(q.queue().hook(TENANT, seeded.states().seq())).isPresent();

            assertThat(scans.get().scans()).as("one scan").hasSize(1);
            ScanCountingStore.CountedScan scan = scans.get().scans().get(0);
            assertThat(scan.family()).isEqualTo(ColumnFamilies.DELIVERIES);
            assertThat(scan.entries()).as("the rows of sinks 1, 2 and 3; sink 0's is gone").isEqualTo(3);
            // The tenant's ordinal is cached since its ingest; uncached it would be one get of the tenant index.
            List<RecordingStore.Call> calls = recorder.get().calls().stream()
                    .filter(c -> !c.family().equals(ColumnFamilies.TENANTS)).toList();
            assertThat(calls).filteredOn(c -> c.method().equals("get")).as("the hook").hasSize(1)
                    .allMatch(c -> c.family().equals(ColumnFamilies.HOOKS));
            assertThat(calls).filteredOn(c -> c.method().equals("multiGet"))
                    .as("?F, ?Q and ?X of each row left, together").hasSize(1)
                    .allSatisfy(c -> assertThat(c.keys()).hasSize(9));
            assertThat(calls).as("nothing else").hasSize(3);
        }
    }
}

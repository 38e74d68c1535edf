package io.ankusa.tests.admin;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.admin.AccessPolicy;
import io.ankusa.admin.AdminServer;
import io.ankusa.admin.Role;
import io.ankusa.api.Hook;
import io.ankusa.api.Receipt;
import io.ankusa.dispatch.Pipeline;
import io.ankusa.dispatch.Replayer;
import io.ankusa.dispatch.sink.SinkOutcome;
import io.ankusa.keys.ColumnFamilies;
import io.ankusa.keys.HookKey;
import io.ankusa.store.Durability;
import io.ankusa.store.WriteBatch;
import io.ankusa.testkit.ScriptedSink;
import io.ankusa.tests.dispatch.DispatchFixture;
import io.ankusa.tests.queue.QueueUnderTest;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * A node with an admin server on 127.0.0.1, port 0, over a real queue and pipeline on one backend,
 * seeded through the real ingest and dispatch with a scripted sink: tenant {@code acme} with two
 * dead letters, a retry waiting and a delivered hook; {@code globex} with a quarantined delivery;
 * {@code initech} with a disabled endpoint and a hook waiting on it; {@code umbrella} with one
 * dead letter; {@code acme-labs} with one hook due.
 */
final class AdminNode implements AutoCloseable {

    static final String OPERATOR = "operator-token-0123456789";
    static final String VIEWER = "viewer-token-0123456789ab";

    /** Hooks whose id starts with this are dead-lettered by the sink; "retry" ones are retried. */
    static final String DEAD = "dead";
    static final String RETRY = "retry";

    final DispatchFixture fixture;
    final Pipeline pipeline;
    final AdminServer server;
    final AdminClient client;
    Receipt acmeDead1;
    Receipt acmeDead2;
    Receipt acmeRetry;
    Receipt globexQuarantined;
    Receipt umbrellaDead;

    private AdminNode(DispatchFixture fixture, Pipeline pipeline, AdminServer server) {
        this.fixture = fixture;
        this.pipeline = pipeline;
        this.server = server;
        this.client = new AdminClient(server.port());
    }

    static AccessPolicy tokens() {
        return AccessPolicy.tokens(Map.of(OPERATOR, Role.OPERATOR, VIEWER, Role.VIEWER));
    }

    /** A seeded node on {@code backend} whose server uses the operator and viewer tokens. */
    static AdminNode seeded(String backend, Path dir) {
        return seeded(backend, dir, tokens());
    }

    static AdminNode seeded(String backend, Path dir, AccessPolicy policy) {
        return open(backend, dir, policy, AdminNode::seed);
    }

    /** A node on {@code backend}, seeded by {@code seed}, serving with {@code policy}. */
    static AdminNode open(String backend, Path dir, AccessPolicy policy, UnaryOperator<AdminNode> seed) {
        DispatchFixture fixture = DispatchFixture.open(backend, dir);
        Pipeline pipeline = fixture.pipeline(new ScriptedSink(d -> d.hookId().startsWith(DEAD)
                ? SinkOutcome.dead("HTTP 410 from the receiver")
                : d.hookId().startsWith(RETRY) ? SinkOutcome.retry("HTTP 503 from the receiver")
                : SinkOutcome.delivered()), b -> b);
        AdminServer server = AdminServer.builder(fixture.queue()).replayer(Replayer.of(fixture.queue()))
                .pipeline(pipeline).accessPolicy(policy).port(0).build().start();
        return seed.apply(new AdminNode(fixture, pipeline, server));
    }

    private AdminNode seed() {
        fixture.queue().disableEndpoint(fixture.ingest("i-waits", "initech", 0).tenantId(), 0);
        acmeDead1 = fixture.ingest(DEAD + "-a1", "acme", 0);
        acmeDead2 = fixture.ingest(DEAD + "-a2", "acme", 0);
        acmeRetry = fixture.ingest(RETRY + "-a3", "acme", 0);
        fixture.ingest("ok-a4", "acme", 0);
        umbrellaDead = fixture.ingest(DEAD + "-u1", "umbrella", 0);
        globexQuarantined = fixture.ingest("g-damaged", "globex", 0);
        damage(globexQuarantined.seq());
        DispatchFixture.await(pipeline.tick());
        fixture.ingest("due-l1", "acme-labs", 0);
        assertThat(fixture.queue().stats().dead()).as("seeded dead letters").isEqualTo(3);
        assertThat(fixture.queue().stats().quarantined()).as("seeded quarantine").isEqualTo(1);
        assertThat(fixture.queue().stats().scheduled()).as("seeded retry").isEqualTo(1);
        return this;
    }

    /** Overwrites hook {@code seq}'s stored bytes so that it no longer decodes (its claim quarantines it). */
    void damage(long seq) {
        byte[] key = new HookKey(seq).encode();
        byte[] stored = fixture.store().get(ColumnFamilies.HOOKS, key).orElseThrow();
        byte[] garbage = new byte[stored.length];
        Arrays.fill(garbage, (byte) 0xFF);
        fixture.store().commit(new WriteBatch().put(ColumnFamilies.HOOKS, key, garbage), Durability.SYNC);
    }

    Receipt ingest(Hook hook) {
        return fixture.ingest(hook);
    }

    static Hook hook(String id, String tenant) {
        return QueueUnderTest.hook(id, tenant, 0);
    }

    @Override
    public void close() {
        try {
            server.close();
        } finally {
            try {
                pipeline.close();
            } finally {
                fixture.close();
            }
        }
    }
}

package io.ankusa.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.api.Hook;
import io.ankusa.api.QueueConfig;
import io.ankusa.queue.Queue;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@code ankusa hook}: one stored hook, its headers and deliveries, the payload only when asked for. */
class HookCommandTest {

    @TempDir
    Path dir;

    /** A store of one hook ingested through the queue, and its seq. */
    private record OneHook(Path store, long seq) {
    }

    private OneHook storeWithHook(String backend, byte[] payload) {
        Path store = dir.resolve("hook-" + backend);
        try (Queue queue = Queue.open(QueueConfig.builder(store).backend(backend).build())) {
            long seq = queue.ingest(Hook.builder().id("order-7").sourceId("shop").tenantId("acme")
                    .header("content-type", "application/json").header("x-note", "csi \u009b2J here")
                    .idempotencyKey("idem-7").orderingKey("cart-9").payload(payload).sinks(0, 2).build()).join().seq();
            return new OneHook(store, seq);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"rocksdb", "lmdb"})
    void hookShowsTheStoredHookWithoutItsPayload(String backend) {
        OneHook stored = storeWithHook(backend, "{\"card\":\"4111 secret\"}".getBytes(StandardCharsets.UTF_8));

        CommandRun run = CommandRun.of("hook", "--store", stored.store().toString(), "--backend", backend,
                "--tenant", "acme", "--seq", Long.toString(stored.seq()));

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).matches("""
                tenant           acme
                seq              %d
                hook             order-7
                source           shop
                received         20\\S+Z
                idempotency key  idem-7
                ordering key     cart-9
                traceparent      -
                payload          22 B \\(not shown: it may hold personal data; --payload shows it\\)
                Headers:
                header        value
                content-type  application/json
                x-note        csi \\\\x9b2J here
                Deliveries:
                sink  state  attempts  last attempt  last error
                0     due           0  -
                2     due           0  -
                """.formatted(stored.seq()));
        assertThat(run.out()).doesNotContain("secret", "\u009b");
    }

    @Test
    void hookWithPayloadPrintsUtf8TextEscaped() {
        OneHook stored = storeWithHook("rocksdb", "{\"a\":\"\u001b[31mred\u202e\"}\n".getBytes(StandardCharsets.UTF_8));

        CommandRun run = CommandRun.of("hook", "--store", stored.store().toString(), "--tenant", "acme", "--seq",
                Long.toString(stored.seq()), "--payload");

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).contains("payload          20 B (below)\n")
                .endsWith("Payload (UTF-8, escaped):\n{\"a\":\"\\x1b[31mred\\u202e\"}\\n\n")
                .doesNotContain("\u001b", "\u202e");
    }

    @Test
    void hookWithPayloadPrintsBytesThatAreNotUtf8AsBase64() {
        byte[] binary = {(byte) 0xff, (byte) 0xfe, 0x00, 0x1b, 0x41};
        OneHook stored = storeWithHook("rocksdb", binary);

        CommandRun run = CommandRun.of("hook", "--store", stored.store().toString(), "--tenant", "acme", "--seq",
                Long.toString(stored.seq()), "--payload");

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).endsWith("Payload (not UTF-8, so base64):\n" + Base64.getEncoder().encodeToString(binary)
                + "\n");
    }

    @ParameterizedTest
    @ValueSource(strings = {"rocksdb", "lmdb"})
    void hookJsonHasThePayloadOnlyWhenAsked(String backend) {
        byte[] payload = "{\"card\":\"4111 secret\"}".getBytes(StandardCharsets.UTF_8);
        OneHook stored = storeWithHook(backend, payload);
        String[] args = {"hook", "--json", "--store", stored.store().toString(), "--backend", backend,
            "--tenant", "acme", "--seq", Long.toString(stored.seq())};

        CommandRun hidden = CommandRun.of(args);
        CommandRun shown = CommandRun.of(append(args, "--payload"));

        assertThat(hidden.exitCode()).as(hidden.err()).isZero();
        String fields = "\\{\"tenant\":\"acme\",\"seq\":" + stored.seq() + ",\"hook\":\"order-7\",\"source\":\"shop\","
                + "\"receivedAt\":\"20[^\"]+Z\",\"idempotencyKey\":\"idem-7\",\"orderingKey\":\"cart-9\","
                + "\"traceparent\":null,\"headers\":\\{\"content-type\":\"application/json\","
                + "\"x-note\":\"csi \\\\u009b2J here\"},\"payloadBytes\":22,";
        String deliveries = "\"deliveries\":\\[\\{\"sink\":0,\"state\":\"due\",\"attempts\":0,\"lastAttemptAt\":null,"
                + "\"lastError\":\"\"},\\{\"sink\":2,\"state\":\"due\",\"attempts\":0,\"lastAttemptAt\":null,"
                + "\"lastError\":\"\"}]}\n";
        assertThat(hidden.out()).matches(fields + deliveries).doesNotContain("payload\"");
        assertThat(shown.out()).matches(fields + "\"payload\":\"" + Base64.getEncoder().encodeToString(payload) + "\","
                + deliveries);
    }

    private static String[] append(String[] args, String arg) {
        String[] more = Arrays.copyOf(args, args.length + 1);
        more[args.length] = arg;
        return more;
    }

    @Test
    void hookOfAnUnknownTenantOrSeqIsTheNotFoundExitCode() {
        OneHook stored = storeWithHook("rocksdb", new byte[0]);
        String store = stored.store().toString();

        CommandRun tenant = CommandRun.of("hook", "--store", store, "--tenant", "nobody", "--seq", "1");
        CommandRun seq = CommandRun.of("hook", "--store", store, "--tenant", "acme", "--seq",
                Long.toString(stored.seq() + 1000));

        assertThat(tenant.exitCode()).isEqualTo(ExitCode.UNKNOWN_TENANT.code());
        assertThat(tenant.errLines()).containsExactly("ankusa: unknown tenant 'nobody' in " + store);
        assertThat(seq.exitCode()).isEqualTo(ExitCode.UNKNOWN_TENANT.code());
        assertThat(seq.errLines()).containsExactly("ankusa: tenant 'acme' holds no hook " + (stored.seq() + 1000)
                + " in " + store + " (never ingested, or every delivery ended and it was deleted)");
        assertThat(seq.out()).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"--tenant acme", "--seq 1", "--tenant acme --seq 0", "--tenant acme --seq x"})
    void badHookArgumentsAreUsageErrors(String options) {
        Path store = TenantStores.storeWith(dir, "rocksdb", "acme");
        String[] args = ("hook --store " + store + " " + options).split(" ");

        CommandRun run = CommandRun.of(args);

        assertThat(run.exitCode()).isEqualTo(ExitCode.USAGE.code());
        assertThat(run.errLines()).singleElement().asString().startsWith("ankusa hook: ");
    }

    @Test
    void aHostileTenantIdInTheMessagePrintsEscaped() {
        OneHook stored = storeWithHook("rocksdb", new byte[0]);

        CommandRun run = CommandRun.of("hook", "--store", stored.store().toString(), "--tenant",
                "evil\u001b[2J\u202egnp.exe", "--seq", "1");

        assertThat(run.exitCode()).isEqualTo(ExitCode.UNKNOWN_TENANT.code());
        assertThat(run.errLines()).containsExactly("ankusa: unknown tenant 'evil\\x1b[2J\\u202egnp.exe' in "
                + stored.store());
    }
}
